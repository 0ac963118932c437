# --print echoes this file with actual results; ctest matches the rewritten blocks below.
# (No semicolons here: ctest's PASS_REGULAR_EXPRESSION is a ';'-separated list.)
query
SELECT 7, 'seven', '$TESTDATA/x'
----
wrong

statement ok
SELECT * FROM missing
