# Reading remote files: http(s):// URLs and s3:// URIs as SOURCE and in the metadata functions.
# Run by tests/tools/remote_sqltest.mjs (ctest sql_remote_reading), which starts nginx on
# tests/data ($HTTP) and an S3 server ($S3_ENDPOINT, bucket `data`) on 127.0.0.1 and sets the
# AWS_* variables to the server's key pair, region and endpoint.

# The same file locally, over HTTP and over S3: the same rows.
statement ok
CREATE VIRTUAL TABLE temp.local USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet');

statement ok
CREATE VIRTUAL TABLE temp.web USING parquet('$HTTP/parquet-testing/data/alltypes_plain.parquet');

statement ok
CREATE VIRTUAL TABLE temp.s3 USING parquet('s3://data/alltypes_plain.parquet');

query
SELECT id, bool_col, int_col, string_col, timestamp_col FROM web ORDER BY id LIMIT 3;
----
0|1|0|x'30'|2009-01-01 00:00:00
1|0|1|x'31'|2009-01-01 00:01:00
2|1|0|x'30'|2009-02-01 00:00:00

query
SELECT count(*) FROM (SELECT * FROM web EXCEPT SELECT * FROM local);
----
0

query
SELECT count(*) FROM (SELECT * FROM s3 EXCEPT SELECT * FROM local);
----
0

query
SELECT count(*), count(DISTINCT id) FROM s3;
----
8|8

# filename is the URL or URI as written.
query
SELECT DISTINCT filename FROM s3;
----
s3://data/alltypes_plain.parquet

query
SELECT DISTINCT replace(filename, '$HTTP', 'HTTP') FROM web;
----
HTTP/parquet-testing/data/alltypes_plain.parquet

# Pushdown over the network gives what the local file gives.
query
SELECT id FROM web WHERE id BETWEEN 2 AND 5 ORDER BY id;
----
2
3
4
5

query
SELECT id FROM s3 WHERE string_col = x'31' ORDER BY id;
----
1
3
5
7

# What the scan sent: the requests (every try) and the body bytes they brought. The 1851-byte file
# came whole with the footer (one suffix range of 256 KiB) when the table was created, so a scan only
# checks the object is unchanged: one HEAD request, no body.
query
SELECT json_extract(parquet_scan_stats('web'), '$.requests'), json_extract(parquet_scan_stats('web'), '$.bytes_fetched');
----
1|0

# A local table sends none.
statement ok
SELECT count(*) FROM local;

query
SELECT json_extract(parquet_scan_stats('local'), '$.requests'), json_extract(parquet_scan_stats('local'), '$.bytes_fetched');
----
0|0

# Comma lists mix local paths, URLs and S3 URIs; each file is one file of the dataset.
statement ok
CREATE VIRTUAL TABLE temp.mixed USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet,$HTTP/parquet-testing/data/alltypes_plain.parquet,s3://data/alltypes_plain.parquet');

query
SELECT count(*), count(DISTINCT filename) FROM mixed;
----
24|3

query
SELECT substr(filename, 1, 5), count(*) FROM mixed GROUP BY 1 ORDER BY 1;
----
http:|8
s3://|8
tests|8

# s3:// keys take the globs of local paths: listed with ListObjectsV2, sorted by key; `*` stays
# within a folder, `**` crosses folders but not hidden ones.
statement ok
CREATE VIRTUAL TABLE temp.globbed USING parquet('s3://data/plain/*.parquet', union_by_name=1);

query
SELECT DISTINCT filename FROM globbed ORDER BY 1;
----
s3://data/plain/alltypes_dictionary.parquet
s3://data/plain/alltypes_plain.parquet

statement ok
CREATE VIRTUAL TABLE temp.deep USING parquet('s3://data/plain/**/alltypes_plain.parquet');

query
SELECT DISTINCT filename FROM deep ORDER BY 1;
----
s3://data/plain/alltypes_plain.parquet
s3://data/plain/deep/er/alltypes_plain.parquet

# A listing longer than one page (1000 keys): the continuation tokens are followed.
statement ok
CREATE VIRTUAL TABLE temp.paged USING parquet('s3://data/many/**/*.parquet');

query
SELECT DISTINCT filename FROM paged;
----
s3://data/many/z/alltypes_plain.parquet

statement error no file matches 's3://data/plain/*.csv'
CREATE VIRTUAL TABLE temp.none USING parquet('s3://data/plain/*.csv');

# Keys with spaces are sent encoded (and signed so).
query
SELECT count(*) FROM parquet_metadata('s3://data/key with space/alltypes_plain.parquet');
----
11

# The metadata functions take the same sources.
query
SELECT count(*), min(num_rows) FROM parquet_file_metadata('$HTTP/parquet-testing/data/alltypes_plain.parquet');
----
1|8

query
SELECT name, type FROM parquet_schema('s3://data/alltypes_plain.parquet') WHERE name IN ('id', 'string_col') ORDER BY name;
----
id|INT32
string_col|BYTE_ARRAY

query
SELECT count(*) FROM parquet_kv_metadata('$HTTP/parquet-testing/data/alltypes_plain.parquet');
----
0

# Retries: the S3 server answers the first two GETs of data/flaky/ keys with 503.
statement ok
CREATE VIRTUAL TABLE temp.flaky USING parquet('s3://data/flaky/alltypes_plain.parquet');

query
SELECT count(*) FROM flaky;
----
8

# Through a proxy that resets the connection of the first request and cuts the answer to the second
# short: both are retried, and the rows are those of the local file.
statement ok
CREATE VIRTUAL TABLE temp.proxied USING parquet('$PROXY/parquet-testing/data/alltypes_plain.parquet');

query
SELECT count(*) FROM (SELECT * FROM proxied EXCEPT SELECT * FROM local);
----
0

# A server that keeps failing: after the last try, an error naming the object and the status.
statement error s3://data/down/alltypes_plain.parquet: GET $S3_HTTP/data/down/alltypes_plain.parquet: HTTP 503 after 4 tries InternalError
CREATE VIRTUAL TABLE temp.down USING parquet('s3://data/down/alltypes_plain.parquet', http_retries=3, http_retry_wait_ms=10);

# Errors name the URL without its query string (which may hold a signature).
statement error GET $HTTP/parquet-testing/data/missing.parquet: HTTP 404
CREATE VIRTUAL TABLE temp.gone USING parquet('$HTTP/parquet-testing/data/missing.parquet?X-Amz-Signature=abc123');

# An object that is not Parquet is an error naming it, never rows.
statement error s3://data/notparquet/readme.parquet
SELECT count(*) FROM parquet_metadata('s3://data/notparquet/readme.parquet');

# Credentials: wrong ones are refused by the server (the signature does not match); the table's
# own options win over the environment.
statement error SignatureDoesNotMatch
CREATE VIRTUAL TABLE temp.wrong USING parquet('s3://data/alltypes_plain.parquet', s3_access_key_id='AKIDREMOTETEST', s3_secret_access_key='not-the-secret');

statement ok
CREATE VIRTUAL TABLE temp.explicit USING parquet('s3://data/alltypes_plain.parquet', s3_region='eu-test-1', s3_endpoint='$S3_ENDPOINT', s3_use_ssl=0, s3_url_style=path, s3_access_key_id='AKIDREMOTETEST', s3_secret_access_key='remote-test-secret');

query
SELECT count(*) FROM explicit;
----
8

statement error s3_url_style must be
CREATE VIRTUAL TABLE temp.bad USING parquet('s3://data/alltypes_plain.parquet', s3_url_style=sideways);

# A secret never goes into a database file's schema: a table outside temp that names one is refused.
statement error parquet table 'kept': option 's3_secret_access_key' holds a secret
CREATE VIRTUAL TABLE kept USING parquet('s3://data/alltypes_plain.parquet', s3_secret_access_key='remote-test-secret');

statement error option 'http_bearer_token' holds a secret
CREATE VIRTUAL TABLE kept USING parquet('$HTTP/parquet-testing/data/alltypes_plain.parquet', http_bearer_token='t');

# Nor does a credential written into a URL: a password, or a query parameter that signs or authorizes
# the request (a presigned URL). Refused before any request; a query without one is kept.
statement error parquet table 'kept': a URL in its arguments holds a user name or password (user:password@), a secret
CREATE VIRTUAL TABLE kept USING parquet('http://alice:pw@127.0.0.1:9/never_asked.parquet');

# A user part of any spelling: a token as the user name, percent-encoded, a password holding an
# unencoded '/' or '?', in a comma list, after a path with a space.
statement error a URL in its arguments holds a user name or password (user:password@), a secret
CREATE VIRTUAL TABLE kept USING parquet('https://ghp_TOKEN@127.0.0.1:9/never_asked.parquet');

statement error a URL in its arguments holds a user name or password
CREATE VIRTUAL TABLE kept USING parquet('http://bob%3Apw@127.0.0.1:9/never_asked.parquet');

statement error a URL in its arguments holds a user name or password
CREATE VIRTUAL TABLE kept USING parquet('http://bob:pa/ss@127.0.0.1:9/never_asked.parquet');

statement error a URL in its arguments holds a user name or password
CREATE VIRTUAL TABLE kept USING parquet('$TESTDATA/parquet-testing/data/alltypes_plain.parquet, http://bob:pa?ss@127.0.0.1:9/x.parquet');

statement error a URL in its arguments holds the query parameter 'X-Amz-Signature', a secret
CREATE VIRTUAL TABLE kept USING parquet('$HTTP/parquet-testing/data/alltypes_plain.parquet?X-Amz-Date=1&X-Amz-Signature=abc');

statement error a URL in its arguments holds the query parameter 'sig', a secret
CREATE VIRTUAL TABLE kept USING parquet('$HTTP/parquet-testing/data/alltypes_plain.parquet?sv=1&sig=abc');

# Query names as servers read them: percent-encoded, after ';', with '[]' or spaces.
statement error a URL in its arguments holds the query parameter 'X-Amz-Signature', a secret
CREATE VIRTUAL TABLE kept USING parquet('$HTTP/parquet-testing/data/alltypes_plain.parquet?X%2DAmz%2DSignature=abc');

statement error a URL in its arguments holds the query parameter 'sig', a secret
CREATE VIRTUAL TABLE kept USING parquet('$HTTP/parquet-testing/data/alltypes_plain.parquet?%73ig=abc');

statement error a URL in its arguments holds the query parameter 'X-Amz-Signature', a secret
CREATE VIRTUAL TABLE kept USING parquet('$HTTP/parquet-testing/data/alltypes_plain.parquet?a=1;X-Amz-Signature=abc');

statement error a URL in its arguments holds the query parameter 'X-Amz-Signature', a secret
CREATE VIRTUAL TABLE kept USING parquet('$HTTP/parquet-testing/data/alltypes_plain.parquet?X-Amz-Signature[]=abc');

statement error a URL in its arguments holds the query parameter 'X-Amz-Signature', a secret
CREATE VIRTUAL TABLE kept USING parquet('$HTTP/parquet-testing/sp ace.parquet?%20X-Amz-Signature=abc');

statement ok
CREATE VIRTUAL TABLE kept_url USING parquet('$HTTP/parquet-testing/data/alltypes_plain.parquet?download=true');

query
SELECT count(*) FROM kept_url;
----
8

statement ok
DROP TABLE kept_url;

statement ok
CREATE VIRTUAL TABLE temp.kept_url USING parquet('$HTTP/parquet-testing/data/alltypes_plain.parquet?sig=abc');

query
SELECT count(*) FROM temp.kept_url;
----
8

statement ok
DROP TABLE temp.kept_url;

# parquet_secret keeps settings in the connection's memory, for the locations starting with scope.
statement ok
SELECT parquet_secret('scope=s3://data/, s3_access_key_id=AKIDREMOTETEST, s3_secret_access_key=not-the-secret');

statement error SignatureDoesNotMatch
CREATE VIRTUAL TABLE kept USING parquet('s3://data/alltypes_plain.parquet');

statement ok
SELECT parquet_secret('scope=s3://data/, s3_access_key_id=AKIDREMOTETEST, s3_secret_access_key=remote-test-secret');

statement ok
CREATE VIRTUAL TABLE kept USING parquet('s3://data/alltypes_plain.parquet');

query
SELECT count(*) FROM kept;
----
8

query
SELECT instr(sql, 'secret') FROM sqlite_schema WHERE name = 'kept';
----
0

statement error parquet_secret: unknown setting 'color'
SELECT parquet_secret('color=blue');
