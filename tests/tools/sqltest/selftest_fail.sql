# The runner's own test of failure reporting. ctest requires exactly "2 passed, 9 failed":
# every block marked FAIL must be reported, and a failure must not stop the blocks after it.

# PASS
statement ok
CREATE TABLE t(id INTEGER);

# FAIL: wrong value
query
SELECT 1;
----
2

# FAIL: one row too many expected
query
SELECT 1;
----
1
1

# FAIL: a REAL is not an INTEGER
query
SELECT 1.0;
----
1

# FAIL: statement ok that errors
statement ok
SELECT * FROM missing;

# FAIL: statement error that succeeds
statement error
SELECT 1;

# FAIL: error text does not contain the substring
statement error no such column
SELECT * FROM missing;

# FAIL: a query without ----
query
SELECT 1;

# FAIL: unknown header
querry
SELECT 1;

# FAIL: two statements in one block
statement ok
SELECT 1; SELECT 2;

# PASS: still run after all the failures above
query
SELECT count(*) FROM t;
----
0
