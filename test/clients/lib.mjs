// Shared helpers for the Node client tests: one line per check, counts,
// and a JSON form of decoded Avro values that compares across libraries.
import { createRequire } from 'node:module';
import path from 'node:path';

// The clients live in tmp_check/clients/node_modules (installed by run.sh),
// not next to this file, so resolve them from there.
const WORK = process.env.CLIENTS_WORK
	|| path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../tmp_check/clients');
export const require = createRequire(path.join(WORK, 'package.json'));

export const URL_ = process.env.REGISTRY_URL || 'http://127.0.0.1:18081';
export const RUN = process.env.RUN_ID || String(Date.now());

let passed = 0, failed = 0;
const prefix = process.env.CHECK_PREFIX || '';

export function ok(name, cond, detail) {
	if (cond) { passed++; console.log(`ok - ${prefix}${name}`); }
	else { failed++; console.log(`not ok - ${prefix}${name}${detail !== undefined ? ': ' + detail : ''}`); }
	return !!cond;
}

// check NAME: run fn; a throw is a failure whose message says what the
// client sent and got back (the error objects of both clients carry it).
export async function check(name, fn) {
	try {
		const r = await fn();
		if (r === false) return ok(name, false);
		if (typeof r === 'string') return ok(name, false, r);
		return ok(name, true);
	} catch (e) {
		return ok(name, false, describe(e));
	}
}

export function describe(e) {
	if (!e) return String(e);
	const parts = [e.name ? `${e.name}: ${e.message}` : String(e.message || e)];
	if (e.status !== undefined) parts.push(`status=${e.status}`);
	if (e.errorCode !== undefined) parts.push(`errorCode=${e.errorCode}`);
	if (e.response && e.response.status !== undefined) {
		parts.push(`http=${e.response.status} body=${JSON.stringify(e.response.data)}`);
	}
	if (e.config && e.config.url) parts.push(`request=${e.config.method} ${e.config.url} ${e.config.data || ''}`);
	return parts.join(' | ');
}

// expectRest(fn, status, codes): fn must fail with @confluentinc's RestError
// of this HTTP status and Confluent error_code (one, or any of a list)
export async function expectRest(fn, status, codes) {
	const { RestError } = require('@confluentinc/schemaregistry');
	codes = [].concat(codes);
	try {
		const r = await fn();
		return `no error, got ${show(r)}`;
	} catch (e) {
		if (!(e instanceof RestError) || e.status !== status || !codes.includes(e.errorCode))
			return `want RestError status=${status} errorCode=${codes.join('/')}, got ${describe(e)}`;
	}
}

export function eq(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
export function show(v) { return JSON.stringify(v); }

// JSON form of a decoded record: Buffers as hex, bigint/Long as numbers,
// keys sorted, so that avsc (both node clients) and python compare equal.
export function canon(v) {
	if (v === null || v === undefined) return null;
	if (Buffer.isBuffer(v) || v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString('hex') };
	if (typeof v === 'bigint') return Number(v);
	if (Array.isArray(v)) return v.map(canon);
	if (typeof v === 'object') {
		const out = {};
		for (const k of Object.keys(v).sort()) out[k] = canon(v[k]);
		return out;
	}
	return v;
}

export function finish() {
	console.log(`# ${path.basename(process.argv[1])} ${process.argv.slice(2, 3).join('')}: ${passed} ok, ${failed} not ok`.replace(' :', ':'));
	process.exitCode = failed ? 1 : 0;
}

// The record schema the tests register, and a value that exercises most
// Avro types (a union with null, enum, array, map, bytes, long, double).
export const USER_SCHEMA = {
	type: 'record', name: 'User', namespace: 'test.clients',
	fields: [
		{ name: 'id', type: 'long' },
		{ name: 'name', type: 'string' },
		{ name: 'email', type: ['null', 'string'], default: null },
		{ name: 'score', type: 'double' },
		{ name: 'active', type: 'boolean' },
		{ name: 'color', type: { type: 'enum', name: 'Color', symbols: ['RED', 'GREEN', 'BLUE'] } },
		{ name: 'tags', type: { type: 'array', items: 'string' } },
		{ name: 'attrs', type: { type: 'map', values: 'int' } },
		{ name: 'blob', type: 'bytes' },
	],
};
// a backward-compatible evolution (new field with a default) and an
// incompatible one (new field without a default)
export const USER_SCHEMA_V2 = { ...USER_SCHEMA, fields: [...USER_SCHEMA.fields, { name: 'age', type: 'int', default: 0 }] };
export const USER_SCHEMA_BAD = { ...USER_SCHEMA, fields: [...USER_SCHEMA.fields, { name: 'age', type: 'int' }] };

export function userValue(tag) {
	return {
		id: 1234567890123, name: `ünïcødé ${tag}`, email: `${tag}@example.org`, score: 3.25,
		active: true, color: 'GREEN', tags: ['a', tag], attrs: { x: 1, y: -2 },
		blob: Buffer.from([0, 1, 2, 254, 255]),
	};
}
