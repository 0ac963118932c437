// Tests of the value normalization (duckdb_dump.mjs) and comparison (compare_with_duckdb.mjs) helpers.
// Run: cd tools && npm install && node --test
import assert from 'node:assert/strict';
import test from 'node:test';
import { DuckDBTypeId } from '@duckdb/node-api';
import { formatDate, formatTimestamp, formatTimeOfDay, normalizeValue, readWithDuckDB }
  from '../duckdb_dump.mjs';
import { JsonNumber, daysFromCivil, parseJson, parseTime, parseTimestamp, valueDiff }
  from '../compare_with_duckdb.mjs';

const type = (typeId, extra = {}) => ({ typeId, ...extra });

test('formatDate matches JavaScript Date over the years 0000-9999', () => {
  for (let days = -100_000_000; days <= 100_000_000; days += 9_973) {
    const d = new Date(days * 86_400_000);
    const year = d.getUTCFullYear();
    if (year < 0 || year > 9999) continue;  // Date's ISO text changes form outside 0000..9999
    assert.equal(formatDate(days), d.toISOString().slice(0, 10), `days ${days}`);
    assert.equal(daysFromCivil(year, d.getUTCMonth() + 1, d.getUTCDate()), BigInt(days));
  }
  assert.equal(formatDate(0), '1970-01-01');
  assert.equal(formatDate(-1), '1969-12-31');
  assert.equal(formatDate(11_016), '2000-02-29');
});

test('timestamps format and parse back to the same instant, with any fraction digits', () => {
  let x = 12345n;
  for (let i = 0; i < 2000; ++i) {
    x = (x * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
    const nanos = x % (400n * 365n * 86_400_000_000_000n) - 200n * 365n * 86_400_000_000_000n;
    for (const digits of [0, 3, 6, 9]) {
      const unit = 10n ** BigInt(9 - digits);
      const truncated = nanos - (((nanos % unit) + unit) % unit);
      assert.equal(parseTimestamp(formatTimestamp(truncated, digits)), truncated);
    }
  }
  assert.equal(formatTimestamp(-1n, 9), '1969-12-31 23:59:59.999999999');
  assert.equal(formatTimestamp(1_500_000_000n, 6), '1970-01-01 00:00:01.5');
  assert.equal(parseTimestamp('2020-01-01 00:00:00.5'), parseTimestamp('2020-01-01T00:00:00.500000Z'));
  assert.equal(parseTimestamp('2020-01-01'), undefined);
  assert.equal(formatTimeOfDay(86_399_999_999_999n, 9), '23:59:59.999999999');
  assert.equal(parseTime('12:00:00.5'), parseTime('12:00:00.500000'));
});

test('normalizeValue agrees with DuckDB\'s own text for dates, times and timestamps', async () => {
  const { rows } = await readWithDuckDB(`
    SELECT d, d::VARCHAR, ts, strftime(ts, '%Y-%m-%d %H:%M:%S.%f'), ns, strftime(ns, '%Y-%m-%d %H:%M:%S.%n')
    FROM (SELECT DATE '1600-02-29' + (i * 997)::INTEGER AS d,
                 TIMESTAMP '1700-01-01' + to_microseconds(i * 7777777777777) AS ts,
                 make_timestamp_ns((i * 98765432123457 - 5000000000000000000)::BIGINT) AS ns
          FROM range(300) r(i))`);
  for (const [d, dText, ts, tsText, ns, nsText] of rows) {
    assert.equal(normalizeValue(d), dText);
    assert.equal(parseTimestamp(normalizeValue(ts)), parseTimestamp(tsText));
    assert.equal(parseTimestamp(normalizeValue(ns)), parseTimestamp(nsText));
  }
});

test('normalizeValue maps every kind of DuckDB value', async () => {
  const { rows } = await readWithDuckDB(`SELECT true, 9007199254740993::BIGINT, -5::TINYINT,
    'nan'::DOUBLE, 1.25::FLOAT, 12.340::DECIMAL(10,3), '\\xAB\\x00'::BLOB,
    UUID 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', INTERVAL '1 month 2 days 3 seconds',
    MAP {1: [1.5], 2: NULL}, {'a': NULL, 'b': [DATE '2000-01-02']}, TIME '01:02:03.5'`);
  assert.deepEqual(rows[0].map((v) => normalizeValue(v)), [1, '9007199254740993', -5, null, 1.25, 12.34,
    { hex: 'ab00' }, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', { months: 1, days: 2, millis: 3000 },
    { 1: [1.5], 2: null }, { a: null, b: ['2000-01-02'] }, '01:02:03.5']);
  assert.equal(normalizeValue(rows[0][5], { decimalAsText: true }), '12.340');
});

test('parseJson keeps number text and rejects bad JSON', () => {
  const v = parseJson('[{"a": 18446744073709551615, "b": -1.5e-7, "c": "x\\u00e9\\n"}, true, null]');
  assert.ok(v[0].a instanceof JsonNumber);
  assert.equal(v[0].a.text, '18446744073709551615');
  assert.equal(v[0].b.text, '-1.5e-7');
  assert.equal(v[0].c, 'x\u00e9\n');
  assert.deepEqual(v.slice(1), [true, null]);
  for (const bad of ['[1,]', '{"a"}', '"abc', '[1] x', '01', '{"a":1,,}']) {
    assert.throws(() => parseJson(bad), SyntaxError, bad);
  }
});

test('valueDiff compares by DuckDB type', () => {
  const n = (text) => new JsonNumber(text);
  const FLOAT = type(DuckDBTypeId.FLOAT);
  const DOUBLE = type(DuckDBTypeId.DOUBLE);
  // FLOAT: equal as float32, so a shorter decimal form of the same float matches.
  assert.equal(valueDiff(n('1.1'), 1.100000023841858, FLOAT), undefined);
  assert.ok(valueDiff(n('1.1'), 1.100000023841858, DOUBLE));
  assert.ok(valueDiff(n('1.2'), 1.100000023841858, FLOAT));
  // Integers exactly, beyond 2^53; a UINT64 above 2^63-1 read as REAL compares as a double.
  assert.equal(valueDiff(n('9007199254740993'), '9007199254740993', type(DuckDBTypeId.BIGINT)), undefined);
  assert.ok(valueDiff(n('9007199254740992'), '9007199254740993', type(DuckDBTypeId.BIGINT)));
  assert.equal(valueDiff(n('1.8446744073709552e+19'), '18446744073709551615', type(DuckDBTypeId.UBIGINT)),
    undefined);
  assert.ok(valueDiff('5', 5, type(DuckDBTypeId.INTEGER)));
  // DECIMAL: exact text, or a REAL within 1e-15.
  const DECIMAL = type(DuckDBTypeId.DECIMAL);
  assert.equal(valueDiff('12.340', '12.34', DECIMAL), undefined);
  assert.ok(valueDiff('12.341', '12.34', DECIMAL));
  assert.equal(valueDiff(n('12.34'), '12.340', DECIMAL), undefined);
  assert.ok(valueDiff(n('12.3400001'), '12.340', DECIMAL));
  // Timestamps and times as instants.
  const TS = type(DuckDBTypeId.TIMESTAMP_NS);
  assert.equal(valueDiff('2020-01-01 00:00:00.500000000', '2020-01-01 00:00:00.5', TS), undefined);
  assert.ok(valueDiff('2020-01-01 00:00:00.500000001', '2020-01-01 00:00:00.5', TS));
  assert.ok(valueDiff(n('1577836800000000'), '2020-01-01 00:00:00', TS));
  // An INT96 read by DuckDB as TIMESTAMP (microseconds): ours has the nanoseconds.
  const TS_US = type(DuckDBTypeId.TIMESTAMP);
  assert.equal(valueDiff('-4713-11-26 00:00:04.294967296', '-4713-11-26 00:00:04.294967', TS_US), undefined);
  assert.ok(valueDiff('-4713-11-26 00:00:04.294968', '-4713-11-26 00:00:04.294967', TS_US));
  // BLOB: hex at the top level; hex, base64 or text inside JSON.
  const BLOB = type(DuckDBTypeId.BLOB);
  assert.equal(valueDiff({ hex: '6869' }, { hex: '6869' }, BLOB), undefined);
  assert.equal(valueDiff('aGk=', { hex: '6869' }, BLOB), undefined);
  assert.equal(valueDiff('hi', { hex: '6869' }, BLOB), undefined);
  assert.ok(valueDiff({ hex: '6868' }, { hex: '6869' }, BLOB));
  // Nested: lists element by element, struct fields by name (missing = NULL), maps by key text.
  const LIST = type(DuckDBTypeId.LIST, { valueType: FLOAT });
  assert.equal(valueDiff([n('1.1'), null], [1.100000023841858, null], LIST), undefined);
  assert.ok(valueDiff([n('1.1')], [1.100000023841858, null], LIST));
  const STRUCT = type(DuckDBTypeId.STRUCT, { entryNames: ['a', 'b'], entryTypes: [FLOAT, LIST] });
  assert.equal(valueDiff({ a: n('2') }, { a: 2, b: null }, STRUCT), undefined);
  assert.ok(valueDiff({ a: n('2'), c: null }, { a: 2, b: null }, STRUCT));
  const MAP = type(DuckDBTypeId.MAP, { keyType: type(DuckDBTypeId.INTEGER), valueType: DOUBLE });
  assert.equal(valueDiff({ 1: n('0.5'), 2: null }, { 2: null, 1: 0.5 }, MAP), undefined);
  assert.ok(valueDiff({ 1: n('0.5') }, { 1: 0.5, 2: null }, MAP));
  // VARIANT and other types: structural, numbers by value, text timestamps as instants.
  const VARIANT = type(DuckDBTypeId.VARIANT);
  assert.equal(valueDiff({ x: [n('1'), true, '2020-01-01 00:00:00.000'] }, { x: [1, 1, '2020-01-01 00:00:00'] },
    VARIANT), undefined);
  assert.ok(valueDiff({ x: [n('1')] }, { x: [2] }, VARIANT));
  assert.ok(valueDiff({ x: 1 }, { y: 1 }, VARIANT));
  assert.equal(valueDiff(null, null, DOUBLE), undefined);
  assert.ok(valueDiff(null, 0, DOUBLE));
});
