// @confluentinc/schemaregistry (SchemaRegistryClient, AvroSerializer,
// AvroDeserializer) against the registry.
import { require, URL_, RUN, ok, check, eq, show, canon, finish, describe,
	USER_SCHEMA, USER_SCHEMA_V2, USER_SCHEMA_BAD, userValue, expectRest } from './lib.mjs';

const sr = require('@confluentinc/schemaregistry');
const { SchemaRegistryClient, AvroSerializer, AvroDeserializer, SerdeType, Compatibility } = sr;

const conf = { baseURLs: [URL_], maxRetries: 0 };
const client = new SchemaRegistryClient(conf);
const topic = `confluent-${RUN}`;
const subject = `${topic}-value`;
const info = { schemaType: 'AVRO', schema: JSON.stringify(USER_SCHEMA) };
const info2 = { schemaType: 'AVRO', schema: JSON.stringify(USER_SCHEMA_V2) };
const infoBad = { schemaType: 'AVRO', schema: JSON.stringify(USER_SCHEMA_BAD) };

let id, id2;
await check('confluent register', async () => {
	id = await client.register(subject, info);
	if (!Number.isInteger(id) || id <= 0) return `id ${show(id)}`;
});
await check('confluent register again (fresh client) returns same id', async () => {
	const got = await new SchemaRegistryClient(conf).register(subject, info);
	if (got !== id) return `got ${got}, want ${id}`;
});
await check('confluent getBySubjectAndId', async () => {
	const s = await new SchemaRegistryClient(conf).getBySubjectAndId(subject, id);
	if (!eq(JSON.parse(s.schema), USER_SCHEMA)) return `schema ${s.schema}`;
	if ((s.schemaType ?? 'AVRO') !== 'AVRO') return `schemaType ${s.schemaType}`;
});
await check('confluent getLatestSchemaMetadata', async () => {
	const m = await client.getLatestSchemaMetadata(subject);
	if (m.id !== id || m.version !== 1 || m.subject !== subject) return show(m);
	if (!eq(JSON.parse(m.schema), USER_SCHEMA)) return `schema ${m.schema}`;
});
await check('confluent getSchemaMetadata(subject, 1)', async () => {
	const m = await new SchemaRegistryClient(conf).getSchemaMetadata(subject, 1);
	if (m.id !== id || m.version !== 1 || m.subject !== subject) return show(m);
});
await check('confluent getId (lookup)', async () => {
	const got = await new SchemaRegistryClient(conf).getId(subject, info);
	if (got !== id) return `got ${got}, want ${id}`;
});
await check('confluent getVersion (lookup)', async () => {
	const got = await new SchemaRegistryClient(conf).getVersion(subject, info);
	if (got !== 1) return `got ${got}, want 1`;
});
// data contracts' metadata: lookup finds a schema registered with metadata, with and
// without it, and getLatestWithMetadata picks the latest version whose properties match
const msubject = `${topic}-meta-value`;
const minfo = { ...info, metadata: { properties: { owner: 'team-a' } } };
let mid;
await check('confluent register with metadata', async () => {
	mid = await client.register(msubject, minfo);
	if (!Number.isInteger(mid) || mid <= 0) return `id ${show(mid)}`;
});
await check('confluent getVersion (lookup) with metadata', async () => {
	const got = await new SchemaRegistryClient(conf).getVersion(msubject, minfo);
	if (got !== 1) return `got ${got}, want 1`;
});
await check('confluent getVersion (lookup) without metadata finds the version with metadata', async () => {
	const got = await new SchemaRegistryClient(conf).getVersion(msubject, info);
	if (got !== 1) return `got ${got}, want 1`;
});
await check('confluent getLatestWithMetadata', async () => {
	const m = await new SchemaRegistryClient(conf).getLatestWithMetadata(msubject, { owner: 'team-a' });
	if (m.id !== mid || m.version !== 1 || m.metadata?.properties?.owner !== 'team-a') return show(m);
});
await check('confluent getLatestWithMetadata of other metadata: 404 / 40403', () =>
	expectRest(() => new SchemaRegistryClient(conf).getLatestWithMetadata(msubject, { owner: 'team-b' }), 404, 40403));
await check('confluent AvroSerializer (useLatestWithMetadata) writes the id of the version whose metadata matches', async () => {
	const ser = new AvroSerializer(new SchemaRegistryClient(conf), SerdeType.VALUE,
		{ autoRegisterSchemas: false, useLatestWithMetadata: { owner: 'team-a' } });
	const buf = await ser.serialize(`${topic}-meta`, userValue('meta'));
	if (buf[0] !== 0 || buf.readInt32BE(1) !== mid) return `header ${buf.subarray(0, 5).toString('hex')}, want id ${mid}`;
});
await check('confluent getId of an unknown schema: 404 / 40403', () =>
	expectRest(() => client.getId(subject, { schemaType: 'AVRO', schema: '{"type":"record","name":"Nope","fields":[]}' }), 404, 40403));
await check('confluent getLatestSchemaMetadata of an unknown subject: 404 / 40401', () =>
	expectRest(() => client.getLatestSchemaMetadata(`nosuch-${RUN}`), 404, 40401));
await check('confluent getSchemaMetadata of an unknown version: 404 / 40402', () =>
	expectRest(() => client.getSchemaMetadata(subject, 42), 404, 40402));
await check('confluent getBySubjectAndId of an unknown id: 404 / 40403', () =>
	expectRest(() => client.getBySubjectAndId(subject, 999999999), 404, 40403));
await check('confluent register an invalid schema: 422 / 42201', () =>
	expectRest(() => client.register(subject, { schemaType: 'AVRO', schema: '{"type":"record","name":"X"}' }), 422, 42201));
await check('confluent testSubjectCompatibility (compatible) is true', async () => {
	const r = await client.testSubjectCompatibility(subject, info2);
	if (r !== true) return `got ${show(r)}`;
});
await check('confluent testSubjectCompatibility (incompatible) is false', async () => {
	const r = await client.testSubjectCompatibility(subject, infoBad);
	if (r !== false) return `got ${show(r)}`;
});
await check('confluent testCompatibility(subject, 1, compatible) is true', async () => {
	const r = await client.testCompatibility(subject, 1, info2);
	if (r !== true) return `got ${show(r)}`;
});
// error_code 40901 in current Confluent (Errors.INCOMPATIBLE_SCHEMA_ERROR_CODE),
// plain 409 in releases before it; the client reads either
await check('confluent register incompatible: 409 / 40901', async () => {
	const r = await expectRest(() => client.register(subject, infoBad), 409, 40901);
	if (r === undefined) return;
	return await expectRest(() => client.register(subject, infoBad), 409, 409) === undefined ? undefined : r;
});
await check('confluent getDefaultConfig has a compatibilityLevel', async () => {
	const c = await client.getDefaultConfig();
	if (!Object.values(Compatibility).includes(c.compatibilityLevel)) return show(c);
});
await check('confluent updateConfig(subject, FULL) / getConfig', async () => {
	const u = await client.updateConfig(subject, { compatibility: Compatibility.FULL });
	if (u.compatibility !== 'FULL') return `update returned ${show(u)}`;
	const c = await client.getConfig(subject);
	if (c.compatibilityLevel !== 'FULL') return `getConfig returned ${show(c)}`;
});
await check('confluent updateCompatibility(subject, BACKWARD) / getCompatibility', async () => {
	const u = await client.updateCompatibility(subject, Compatibility.BACKWARD);
	if (u !== 'BACKWARD') return `update returned ${show(u)}`;
	const c = await client.getCompatibility(subject);
	if (c !== 'BACKWARD') return `getCompatibility returned ${show(c)}`;
});
await check('confluent updateConfig with an invalid level: 422 / 42203', () =>
	expectRest(() => client.updateConfig(subject, { compatibility: 'SIDEWAYS' }), 422, 42203));

// serializer / deserializer, wire format magic 0 + 4-byte id
const noAuto = { autoRegisterSchemas: false, useLatestVersion: true };
await check('confluent AvroSerializer (useLatestVersion) / AvroDeserializer round trip', async () => {
	const ser = new AvroSerializer(new SchemaRegistryClient(conf), SerdeType.VALUE, noAuto);
	const v = userValue('confluent');
	const buf = await ser.serialize(topic, v);
	if (buf[0] !== 0 || buf.readInt32BE(1) !== id) return `header ${buf.subarray(0, 5).toString('hex')}, want id ${id}`;
	const de = new AvroDeserializer(new SchemaRegistryClient(conf), SerdeType.VALUE, {});
	const back = await de.deserialize(topic, buf);
	if (!eq(canon(back), canon(v))) return `decoded ${show(canon(back))}`;
});
await check('confluent register v2', async () => {
	id2 = await client.register(subject, info2);
	if (!(id2 > id)) return `id ${id2}`;
	const versions = await client.getAllVersions(subject);
	if (!eq(versions, [1, 2])) return `versions ${show(versions)}`;
});
await check('confluent AvroSerializer (useSchemaId = v1 id) round trip', async () => {
	const ser = new AvroSerializer(new SchemaRegistryClient(conf), SerdeType.VALUE, { autoRegisterSchemas: false, useSchemaId: id });
	const v = userValue('by-id');
	const buf = await ser.serialize(topic, v);
	if (buf[0] !== 0 || buf.readInt32BE(1) !== id) return `header ${buf.subarray(0, 5).toString('hex')}, want id ${id}`;
	const back = await new AvroDeserializer(new SchemaRegistryClient(conf), SerdeType.VALUE, {}).deserialize(topic, buf);
	if (!eq(canon(back), canon(v))) return `decoded ${show(canon(back))}`;
});
await check('confluent AvroSerializer (useLatestVersion) picks v2', async () => {
	const ser = new AvroSerializer(new SchemaRegistryClient(conf), SerdeType.VALUE, noAuto);
	const v = { ...userValue('v2'), age: 42 };
	const buf = await ser.serialize(topic, v);
	if (buf.readInt32BE(1) !== id2) return `id ${buf.readInt32BE(1)}, want ${id2}`;
	const back = await new AvroDeserializer(new SchemaRegistryClient(conf), SerdeType.VALUE, {}).deserialize(topic, buf);
	if (back.age !== 42) return `decoded ${show(canon(back))}`;
});
await check('confluent AvroSerializer autoRegisterSchemas (schema inferred from the value)', async () => {
	const t2 = `confluent-auto-${RUN}`;
	const ser = new AvroSerializer(new SchemaRegistryClient(conf), SerdeType.VALUE, { autoRegisterSchemas: true });
	const v = { name: 'auto', n: 7, ok: true };
	const buf = await ser.serialize(t2, v);
	const registered = await client.getLatestSchemaMetadata(`${t2}-value`);
	if (buf.readInt32BE(1) !== registered.id) return `id ${buf.readInt32BE(1)}, registered ${show(registered)}`;
	const back = await new AvroDeserializer(new SchemaRegistryClient(conf), SerdeType.VALUE, {}).deserialize(t2, buf);
	if (!eq(canon(back), canon(v))) return `decoded ${show(canon(back))}`;
});

// versions, normalize, full responses, subjects that need URL encoding
await check('confluent registerFullResponse has id, version, subject', async () => {
	const s3 = `${topic}-full`;
	const m = await new SchemaRegistryClient(conf).registerFullResponse(s3, info);
	if (m.id !== id || (m.version !== undefined && m.version !== 1) || (m.subject !== undefined && m.subject !== s3)) return show(m);
	await client.deleteSubject(s3, false);
	await client.deleteSubject(s3, true);
});
await check('confluent register(normalize=true) of a reformatted schema returns the same id', async () => {
	const s4 = `${topic}-norm`;
	const pretty = JSON.stringify(USER_SCHEMA, null, 2);
	const a = await new SchemaRegistryClient(conf).register(s4, info, true);
	const b = await new SchemaRegistryClient(conf).register(s4, { schemaType: 'AVRO', schema: pretty }, true);
	if (a !== id || b !== id) return `ids ${a}, ${b}, want ${id}`;
	const versions = await client.getAllVersions(s4);
	if (!eq(versions, [1])) return `versions ${show(versions)}`;
	await client.deleteSubject(s4, false);
	await client.deleteSubject(s4, true);
});
await check('confluent deleteSubjectVersion (soft, then permanent)', async () => {
	const s5 = `${topic}-ver`;
	await client.register(s5, info);
	await client.register(s5, info2);
	const soft = await client.deleteSubjectVersion(s5, 2, false);
	if (soft !== 2) return `soft delete returned ${show(soft)}`;
	const versions = await new SchemaRegistryClient(conf).getAllVersions(s5);
	if (!eq(versions, [1])) return `versions after soft delete ${show(versions)}`;
	const perm = await client.deleteSubjectVersion(s5, 2, true);
	if (perm !== 2) return `permanent delete returned ${show(perm)}`;
	const m = await new SchemaRegistryClient(conf).getLatestSchemaMetadata(s5);
	if (m.version !== 1) return `latest ${show(m)}`;
	await client.deleteSubject(s5, false);
	await client.deleteSubject(s5, true);
});
await check('confluent subject that needs URL encoding (space, slash, unicode)', async () => {
	const odd = `odd ${RUN}/é?&%-value`;
	const c = new SchemaRegistryClient(conf);
	const got = await c.register(odd, info);
	if (got !== id) return `register id ${got}, want ${id}`;
	const m = await new SchemaRegistryClient(conf).getLatestSchemaMetadata(odd);
	if (m.subject !== odd || m.id !== id) return `latest ${show(m)}`;
	const all = await c.getAllSubjects();
	if (!all.includes(odd)) return `${show(odd)} not in getAllSubjects`;
	const l = await new SchemaRegistryClient(conf).getId(odd, info);
	if (l !== id) return `lookup ${l}`;
	const del = await c.deleteSubject(odd, false);
	if (!eq(del, [1])) return `soft delete ${show(del)}`;
	await c.deleteSubject(odd, true);
});

// deletes
await check('confluent deleteSubject permanent before soft: 404 / 40405', () =>
	expectRest(() => client.deleteSubject(subject, true), 404, 40405));
await check('confluent deleteSubject (soft) returns the versions', async () => {
	const r = await client.deleteSubject(subject, false);
	if (!eq(r, [1, 2])) return `got ${show(r)}`;
});
await check('confluent soft-deleted subject is gone from getAllSubjects', async () => {
	const all = await client.getAllSubjects();
	if (all.includes(subject)) return 'still listed';
});
await check('confluent getLatestSchemaMetadata after soft delete: 404 / 40401', () =>
	expectRest(() => new SchemaRegistryClient(conf).getLatestSchemaMetadata(subject), 404, 40401));
await check('confluent getSchemaMetadata(subject, 1, deleted=true) after soft delete', async () => {
	const m = await new SchemaRegistryClient(conf).getSchemaMetadata(subject, 1, true);
	if (m.id !== id || m.version !== 1) return show(m);
});
await check('confluent deleteSubject (permanent) returns the versions', async () => {
	const r = await client.deleteSubject(subject, true);
	if (!eq(r, [1, 2])) return `got ${show(r)}`;
});
await check('confluent getSchemaMetadata(deleted=true) after permanent delete: 404 / 40401', () =>
	expectRest(() => new SchemaRegistryClient(conf).getSchemaMetadata(subject, 1, true), 404, 40401));

finish();
