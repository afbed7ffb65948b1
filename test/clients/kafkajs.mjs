// @kafkajs/confluent-schema-registry against the registry.
import { require, URL_, RUN, ok, check, eq, show, canon, finish, describe,
	USER_SCHEMA, USER_SCHEMA_V2, userValue } from './lib.mjs';

const { SchemaRegistry, SchemaType } = require('@kafkajs/confluent-schema-registry');
const registry = new SchemaRegistry({ host: URL_ }, { forSchemaOptions: {} });
const subject = `kafkajs-${RUN}-value`;
const schemaStr = JSON.stringify(USER_SCHEMA);

let id, id2;
await check('kafkajs register (new subject: GET /config 404 then PUT /config)', async () => {
	const r = await registry.register({ type: SchemaType.AVRO, schema: schemaStr }, { subject });
	id = r.id;
	if (!Number.isInteger(id) || id <= 0) return `bad id ${show(r)}`;
});
await check('kafkajs register same schema again returns same id', async () => {
	const r = await registry.register({ type: SchemaType.AVRO, schema: schemaStr }, { subject });
	if (r.id !== id) return `got ${show(r)}, want id ${id}`;
});
await check('kafkajs getSchema(id)', async () => {
	// a fresh client, so it really fetches /schemas/ids/{id}
	const fresh = new SchemaRegistry({ host: URL_ });
	const s = await fresh.getSchema(id);
	if (s.name !== 'test.clients.User') return `name ${s.name}`;
	const fields = s.fields.map(f => f.name).join(',');
	if (fields !== 'id,name,email,score,active,color,tags,attrs,blob') return `fields ${fields}`;
});
await check('kafkajs getLatestSchemaId', async () => {
	const got = await registry.getLatestSchemaId(subject);
	if (got !== id) return `got ${got}, want ${id}`;
});
await check('kafkajs getRegistryId(subject, 1)', async () => {
	const got = await registry.getRegistryId(subject, 1);
	if (got !== id) return `got ${got}, want ${id}`;
});
await check('kafkajs getRegistryIdBySchema (lookup)', async () => {
	const got = await registry.getRegistryIdBySchema(subject, { type: SchemaType.AVRO, schema: schemaStr });
	if (got !== id) return `got ${got}, want ${id}`;
});
await check('kafkajs getRegistryIdBySchema of an unknown schema is rejected (404)', async () => {
	try {
		await registry.getRegistryIdBySchema(subject, { type: SchemaType.AVRO, schema: JSON.stringify({ type: 'record', name: 'Nope', fields: [] }) });
		return 'no error';
	} catch (e) {
		// the client turns exactly a 404 into ConfluentSchemaRegistryError
		// with the server's message; anything else is rethrown as is
		if (e.name !== 'ConfluentSchemaRegistryError' || !/Schema not found/.test(e.message))
			return `want ConfluentSchemaRegistryError (from a 404), got ${describe(e)}`;
	}
});
await check('kafkajs encode/decode round trip', async () => {
	const v = userValue('kafkajs');
	const buf = await registry.encode(id, v);
	if (buf[0] !== 0 || buf.readInt32BE(1) !== id) return `header ${buf.subarray(0, 5).toString('hex')}`;
	const fresh = new SchemaRegistry({ host: URL_ });
	const back = await fresh.decode(buf);
	if (!eq(canon(back), canon(v))) return `decoded ${show(canon(back))}`;
});
await check('kafkajs register v2 (backward compatible)', async () => {
	const r = await registry.register({ type: SchemaType.AVRO, schema: JSON.stringify(USER_SCHEMA_V2) }, { subject });
	id2 = r.id;
	if (!(id2 > id)) return `id ${show(r)}`;
	const latest = await registry.getLatestSchemaId(subject);
	if (latest !== id2) return `latest ${latest}, want ${id2}`;
});
await check('kafkajs decode v1 bytes with v2 reader schema', async () => {
	const v = userValue('reader');
	const buf = await registry.encode(id, v);
	const back = await registry.decode(buf, { [SchemaType.AVRO]: { readerSchema: USER_SCHEMA_V2 } });
	if (back.age !== 0 || back.name !== v.name) return `decoded ${show(canon(back))}`;
});
await check('kafkajs register an incompatible schema is rejected (409)', async () => {
	const bad = { ...USER_SCHEMA, fields: [...USER_SCHEMA.fields, { name: 'age2', type: 'int' }] };
	try {
		await registry.register({ type: SchemaType.AVRO, schema: JSON.stringify(bad) }, { subject });
		return 'no error';
	} catch (e) {
		if (e.status !== 409) return `want status 409, got ${describe(e)}`;
	}
});
await check('kafkajs getSchema of an unknown id is rejected (404)', async () => {
	try {
		await registry.getSchema(999999999);
		return 'no error';
	} catch (e) {
		if (e.status !== 404) return `want status 404, got ${describe(e)}`;
	}
});
await check('kafkajs register with compatibility NONE sets the subject config', async () => {
	const { COMPATIBILITY } = require('@kafkajs/confluent-schema-registry');
	const s2 = `kafkajs-none-${RUN}-value`;
	await registry.register({ type: SchemaType.AVRO, schema: schemaStr }, { subject: s2, compatibility: COMPATIBILITY.NONE });
	// the second register reads GET /config/{subject} and compares it
	const bad = { ...USER_SCHEMA, fields: [{ name: 'other', type: 'int' }] };
	const r = await registry.register({ type: SchemaType.AVRO, schema: JSON.stringify(bad) }, { subject: s2, compatibility: COMPATIBILITY.NONE });
	if (!(r.id > 0)) return show(r);
	const latest = await registry.getLatestSchemaId(s2);
	if (latest !== r.id) return `latest ${latest}, want ${r.id}`;
});

finish();
