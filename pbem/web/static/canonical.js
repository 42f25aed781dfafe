// RFC 8785 (JSON Canonicalization Scheme): the bytes pbem hashes and signs, exactly as
// pbem/record/canonical.py writes them (tests/web/test_web_crypto.py holds the two to the same bytes).
//
// RFC 8785 writes strings and numbers as ECMAScript's JSON.stringify does, and sorts object keys by their
// UTF-16 code units, as Array.prototype.sort does: so this is short. What it adds is refusing what pbem's
// Python refuses: a string that is not well-formed Unicode (a lone surrogate: "input contains non-UTF-8
// codepoints"), a number that is not finite, and (canonical(), the record's form) an integer beyond
// 2^53 - 1, which Python's rfc8785 refuses ("exceeds safe integer domain") and a browser cannot even hold
// exactly. canonicalize() is plain RFC 8785, every finite number allowed (the RFC's own examples).

import { PbemCryptoError, utf8 } from './bytes.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function fail(message) {
  throw new PbemCryptoError('RecordError', message);
}

function write(value, records, depth) {
  if (depth > 1000) fail('JSON nested too deeply to canonicalize');
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      if (LONE_SURROGATE.test(value)) fail('input contains non-UTF-8 codepoints (a lone surrogate)');
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) fail(`${value} is not a JSON number`);
      if (records && Number.isInteger(value) && !Number.isSafeInteger(value)) {
        fail(`${value} exceeds safe integer domain for JSON floats`);
      }
      return JSON.stringify(value); // ECMAScript's Number serialization is RFC 8785's; -0 is written 0
    case 'object':
      if (Array.isArray(value)) return `[${value.map((v) => write(v, records, depth + 1)).join(',')}]`;
      if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) {
        const keys = Object.keys(value).sort(); // by UTF-16 code unit, as RFC 8785 sorts
        return `{${keys.map((k) => `${write(k, records, depth)}:${write(value[k], records, depth + 1)}`).join(',')}}`;
      }
      fail(`a ${value.constructor?.name ?? 'non-plain object'} is not a JSON value`);
      break;
    default:
      fail(`a ${typeof value} is not a JSON value`);
  }
  return '';
}

/** RFC 8785 text of any JSON value (any finite number). */
export function canonicalize(value) {
  return write(value, false, 0);
}

/** The RFC 8785 bytes of a record's value, as pbem.record.canonical.canonical writes them. */
export function canonical(value) {
  return utf8(write(value, true, 0));
}
