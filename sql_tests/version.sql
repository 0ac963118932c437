# parquet_version(): the extension's version and the versions of the libraries it runs with, as JSON.

# One member per library, each a version number; "sqlite" is the library the extension runs in.
query
SELECT key, value GLOB '[0-9]*.[0-9]*' FROM json_each(parquet_version());
----
parquet|1
sqlite|1
zstd|1
lz4|1
snappy|1
zlib|1
brotli|1
lzo|1
openssl|1

query
SELECT json_extract(parquet_version(), '$.sqlite') = sqlite_version();
----
1

# The version the writer stamps into created_by is the same one.
statement ok
SELECT parquet_export('$TMPDIR/v.parquet', 'SELECT 1 AS x');

query
SELECT created_by = 'sqlite-parquet version ' || json_extract(parquet_version(), '$.parquet') || ' (build dev)'
FROM parquet_file_metadata('$TMPDIR/v.parquet');
----
1
