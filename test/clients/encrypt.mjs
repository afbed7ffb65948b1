// Client-side field-level and payload encryption (Confluent's CSFLE) with
// the real @confluentinc/schemaregistry client and its LocalKmsDriver,
// against the registry's DEK registry.  run.sh calls
//   node encrypt.mjs encode DIR   register KEKs, schemas with ENCRYPT and
//                                 ENCRYPT_PAYLOAD rules (Avro, JSON Schema,
//                                 Protobuf), serialize, check the bytes and
//                                 the DEK registry's answers; writes
//                                 DIR/enc.json
//   node encrypt.mjs decode DIR   in a fresh process (empty caches),
//                                 deserialize every message of DIR/enc.json
//   node encrypt.mjs shared DIR   again, without any KMS secret: only the
//                                 messages under a shared KEK, whose DEKs
//                                 the registry unwraps itself (keyMaterial)
//
// The registry under test must have registry.local_kms_secret = 'mysecret'
// (the secret the clients use here) for the shared KEK checks.
import fs from 'node:fs';
import path from 'node:path';
import { require, URL_, RUN, check, ok, eq, show, canon, finish, describe } from './lib.mjs';

const sr = require('@confluentinc/schemaregistry');
const { SchemaRegistryClient, SerdeType, RuleMode, AvroSerializer, AvroDeserializer,
	JsonSerializer, JsonDeserializer, ProtobufSerializer, ProtobufDeserializer } = sr;
const enc = require('@confluentinc/schemaregistry/dist/rules/encryption/encrypt-executor');
const { LocalKmsDriver } = require('@confluentinc/schemaregistry/dist/rules/encryption/localkms/local-driver');
const { LocalKmsClient } = require('@confluentinc/schemaregistry/dist/rules/encryption/localkms/local-client');
const pb = require('@bufbuild/protobuf');
const wkt = require('@bufbuild/protobuf/wkt');
const example = require('@confluentinc/schemaregistry/dist/test/serde/test/example_pb');

const [mode, dir] = process.argv.slice(2);
if (!['encode', 'decode', 'shared'].includes(mode) || !dir) {
	console.error('usage: encrypt.mjs encode|decode|shared DIR');
	process.exit(2);
}
const SECRET = 'mysecret';
const DAY = 24 * 60 * 60 * 1000;
delete process.env.LOCAL_SECRET;

// the executors, with a clock the DEK rotation case moves forward
class FakeClock extends enc.Clock {
	constructor() { super(); this.fixedNow = Date.now(); }
	now() { return this.fixedNow; }
}
const clock = new FakeClock();
enc.FieldEncryptionExecutor.registerWithClock(clock);
enc.EncryptionExecutor.registerWithClock(clock);
LocalKmsDriver.register();

const conf = { baseURLs: [URL_], maxRetries: 0, cacheCapacity: 1000 };
const client = new SchemaRegistryClient(conf);
const ruleConfig = mode === 'shared' ? {} : { secret: SECRET };
const file = path.join(dir, 'enc.json');
const hex = b => Buffer.from(b).toString('hex');
const dekUrl = p => `${URL_}/dek-registry/v1/keks${p}`;

async function rest(method, p, body) {
	const r = await fetch(dekUrl(p), {
		method, headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await r.text();
	return { status: r.status, body: text ? JSON.parse(text) : null };
}

const rule = (type, kek, params = {}, tags = ['PII']) => ({
	name: `enc-${kek}`, kind: 'TRANSFORM', mode: RuleMode.WRITEREAD, type,
	...(type === 'ENCRYPT' ? { tags } : {}),
	params: { 'encrypt.kek.name': kek, 'encrypt.kms.type': 'local-kms', 'encrypt.kms.key.id': 'mykey', ...params },
	onFailure: 'ERROR,ERROR',
});
const fieldRules = (kek, params) => ({ domainRules: [rule('ENCRYPT', kek, params)] });
const payloadRules = (kek, params) => ({ encodingRules: [rule('ENCRYPT_PAYLOAD', kek, params)] });
const kekName = s => `k_${s}_${RUN}`.replace(/[^A-Za-z0-9_]/g, '_');

// --- schemas ---------------------------------------------------------------
const ADDRESS = {
	type: 'record', name: 'Address', namespace: 'test.enc',
	fields: [{ name: 'street', type: 'string', 'confluent:tags': ['PII'] }, { name: 'city', type: 'string' }],
};
const PERSON = {
	type: 'record', name: 'Person', namespace: 'test.enc',
	fields: [
		{ name: 'id', type: 'int' },
		{ name: 'ssn', type: 'string', 'confluent:tags': ['PII'] },
		{ name: 'photo', type: 'bytes', 'confluent:tags': ['PII'] },
		{ name: 'nickname', type: ['null', 'string'], default: null, 'confluent:tags': ['PII'] },
		{
			name: 'card', type: {
				type: 'record', name: 'Card',
				fields: [{ name: 'number', type: 'string', 'confluent:tags': ['PII'] }, { name: 'brand', type: 'string' }],
			},
		},
	],
};
const PERSON_REF = {
	type: 'record', name: 'Resident', namespace: 'test.enc',
	fields: [{ name: 'name', type: 'string', 'confluent:tags': ['PII'] }, { name: 'home', type: 'test.enc.Address' }],
};
const F1 = { type: 'record', name: 'F1Schema', fields: [{ name: 'f1', type: 'string', 'confluent:tags': ['PII'] }] };
const JSON_PERSON = {
	type: 'object',
	properties: {
		id: { type: 'integer' },
		ssn: { type: 'string', 'confluent:tags': ['PII'] },
		photo: { type: 'string', contentEncoding: 'base64', 'confluent:tags': ['PII'] },
		card: {
			type: 'object',
			properties: { number: { type: 'string', 'confluent:tags': ['PII'] }, brand: { type: 'string' } },
		},
	},
};
// a copy of a value to serialize (the serializers encrypt fields in place)
const fresh = v => JSON.parse(JSON.stringify(v), (k, x) =>
	x && x.type === 'Buffer' && Array.isArray(x.data) ? Buffer.from(x.data) : x);
const person = tag => ({
	id: 7, ssn: `123-45-${tag}`, photo: Buffer.from([1, 2, 3, 250]), nickname: `nick-${tag}`,
	card: { number: `4111-${tag}`, brand: 'visa' },
});

// --- encode ----------------------------------------------------------------
async function register(subject, info) {
	return client.register(subject, info, false);
}

function avroSer(extra = {}, c = client) {
	return new AvroSerializer(c, SerdeType.VALUE, { useLatestVersion: true, ruleConfig: { ...ruleConfig, ...extra } });
}

async function encode() {
	const out = [];
	const keep = (name, format, topic, bytes, value, opts = {}) =>
		out.push({ name, format, topic, hex: hex(bytes), expect: canon(value), ...opts });
	const plaintextAbsent = (bytes, ...texts) => texts.every(t => !Buffer.from(bytes).includes(Buffer.from(t)));

	// 1. Avro field encryption: strings, bytes, a union, a nested record
	{
		const topic = `enc-avro-${RUN}`, kek = kekName('avro');
		await check('avro field: register schema with an ENCRYPT rule', () =>
			register(`${topic}-value`, { schemaType: 'AVRO', schema: JSON.stringify(PERSON), ruleSet: fieldRules(kek) }));
		const v = person('a');
		let bytes;
		await check('avro field: serialize (registers the KEK and a DEK)', async () => {
			bytes = await avroSer().serialize(topic, fresh(v));
		});
		if (bytes) {
			ok('avro field: PII fields are not in the bytes', plaintextAbsent(bytes, v.ssn, v.nickname, v.card.number));
			ok('avro field: other fields are', plaintextAbsent(bytes, 'visa') === false);
			keep('avro field', 'avro', topic, bytes, v);
		}
		await check('avro field: GET kek is Confluent\'s Kek', async () => {
			const r = await rest('GET', `/${kek}`);
			const b = r.body;
			if (r.status !== 200 || b.name !== kek || b.kmsType !== 'local-kms' || b.kmsKeyId !== 'mykey' ||
				b.shared !== false || b.deleted !== false || typeof b.ts !== 'number' || !eq(b.kmsProps, {}))
				return `got ${r.status} ${show(b)}`;
		});
		await check('avro field: GET dek has wrapped material only', async () => {
			const r = await rest('GET', `/${kek}/deks/${encodeURIComponent(topic + '-value')}`);
			const b = r.body;
			if (r.status !== 200 || b.kekName !== kek || b.subject !== `${topic}-value` || b.version !== 1 ||
				b.algorithm !== 'AES256_GCM' || !b.encryptedKeyMaterial || 'keyMaterial' in b || b.deleted !== false)
				return `got ${r.status} ${show(b)}`;
			// what the client wrapped with its local KMS unwraps with the same secret
			const raw = await new LocalKmsClient(SECRET).decrypt(Buffer.from(b.encryptedKeyMaterial, 'base64'));
			if (raw.length !== 34 || raw[0] !== 0x1a || raw[1] !== 32) return `unexpected key material ${hex(raw)}`;
		});
	}

	// 2. payload encryption (ENCRYPT_PAYLOAD)
	{
		const topic = `enc-avro-payload-${RUN}`, kek = kekName('payload');
		await check('avro payload: register', () =>
			register(`${topic}-value`, { schemaType: 'AVRO', schema: JSON.stringify(PERSON), ruleSet: payloadRules(kek) }));
		const v = person('p');
		await check('avro payload: serialize', async () => {
			const bytes = await avroSer().serialize(topic, fresh(v));
			if (!plaintextAbsent(bytes, 'visa', v.ssn)) return 'plaintext in the payload';
			keep('avro payload', 'avro', topic, bytes, v);
		});
	}

	// 3. deterministic encryption (AES256_SIV): the same value, the same bytes
	{
		const topic = `enc-avro-siv-${RUN}`, kek = kekName('siv');
		await check('avro deterministic: register', () =>
			register(`${topic}-value`, {
				schemaType: 'AVRO', schema: JSON.stringify(PERSON),
				ruleSet: fieldRules(kek, { 'encrypt.dek.algorithm': 'AES256_SIV' }),
			}));
		const v = person('d');
		await check('avro deterministic: two serializations are equal', async () => {
			const ser = avroSer();
			const a = await ser.serialize(topic, fresh(v));
			const b = await ser.serialize(topic, fresh(v));
			if (!Buffer.from(a).equals(Buffer.from(b))) return 'bytes differ';
			keep('avro deterministic', 'avro', topic, a, v);
		});
		await check('avro deterministic: the DEK is AES256_SIV', async () => {
			const r = await rest('GET', `/${kek}/deks/${encodeURIComponent(topic + '-value')}?algorithm=AES256_SIV`);
			if (r.status !== 200 || r.body.algorithm !== 'AES256_SIV') return `got ${r.status} ${show(r.body)}`;
			const g = await rest('GET', `/${kek}/deks/${encodeURIComponent(topic + '-value')}`);
			if (g.status !== 404 || g.body.error_code !== 40470) return `AES256_GCM: got ${g.status} ${show(g.body)}`;
		});
	}

	// 4. DEK rotation: encrypt.dek.expiry.days = 1 and a clock two days on (one
	// PII field: each field's transform checks the expiry against the
	// registry's ts, which the fake clock is ahead of)
	{
		const topic = `enc-avro-rot-${RUN}`, kek = kekName('rot');
		await check('rotation: register', () =>
			register(`${topic}-value`, {
				schemaType: 'AVRO', schema: JSON.stringify(F1),
				ruleSet: fieldRules(kek, { 'encrypt.dek.expiry.days': '1' }),
			}));
		const ser = avroSer();
		for (let i = 1; i <= 3; i++) {
			const v = { f1: `rotated ${i}` };
			await check(`rotation: serialize on day ${2 * (i - 1)}`, async () => {
				const bytes = await ser.serialize(topic, fresh(v));
				keep(`rotation ${i}`, 'avro', topic, bytes, v);
			});
			clock.fixedNow += 2 * DAY;
		}
		await check('rotation: the DEK has versions 1, 2, 3', async () => {
			const r = await rest('GET', `/${kek}/deks/${encodeURIComponent(topic + '-value')}/versions`);
			if (r.status !== 200 || !eq(r.body, [1, 2, 3])) return `got ${r.status} ${show(r.body)}`;
			const l = await rest('GET', `/${kek}/deks/${encodeURIComponent(topic + '-value')}/versions/latest`);
			if (l.body.version !== 3) return `latest: ${show(l.body)}`;
		});
	}

	// 5. alternate KEKs: alternate key ids in the rule config and in kmsProps
	{
		const topic = `enc-avro-alt-${RUN}`, kek = kekName('alt');
		await check('alternate keks: KEK with kmsProps', async () => {
			const r = await rest('POST', '', {
				name: kek, kmsType: 'local-kms', kmsKeyId: 'mykey',
				kmsProps: { 'encrypt.alternate.kms.key.ids': 'mykey2,mykey3' }, doc: 'alternates',
			});
			if (r.status !== 200 || !eq(r.body.kmsProps, { 'encrypt.alternate.kms.key.ids': 'mykey2,mykey3' }) ||
				r.body.doc !== 'alternates')
				return `got ${r.status} ${show(r.body)}`;
		});
		await check('alternate keks: register', () =>
			register(`${topic}-value`, { schemaType: 'AVRO', schema: JSON.stringify(PERSON), ruleSet: payloadRules(kek) }));
		const v = person('alt');
		await check('alternate keks: serialize', async () => {
			const bytes = await avroSer({ 'encrypt.alternate.kms.key.ids': 'mykey2,mykey3' })
				.serialize(topic, fresh(v));
			keep('alternate keks', 'avro', topic, bytes, v);
		});
	}

	// 6. a shared KEK: the registry makes the DEK and wraps it with its local KMS
	{
		const topic = `enc-avro-shared-${RUN}`, kek = kekName('shared');
		await check('shared kek: create', async () => {
			const r = await rest('POST', '', { name: kek, kmsType: 'local-kms', kmsKeyId: 'mykey', shared: true });
			if (r.status !== 200 || r.body.shared !== true) return `got ${r.status} ${show(r.body)}`;
		});
		await check('shared kek: register', () =>
			register(`${topic}-value`, { schemaType: 'AVRO', schema: JSON.stringify(PERSON), ruleSet: fieldRules(kek) }));
		const v = person('s');
		await check('shared kek: serialize', async () => {
			const bytes = await avroSer().serialize(topic, fresh(v));
			keep('shared kek', 'avro', topic, bytes, v, { shared: true });
		});
		await check('shared kek: the registry made the DEK and answers it in clear', async () => {
			const r = await rest('GET', `/${kek}/deks/${encodeURIComponent(topic + '-value')}`);
			const b = r.body;
			if (r.status !== 200 || !b.keyMaterial || !b.encryptedKeyMaterial) return `got ${r.status} ${show(b)}`;
			// the client's LocalKmsClient unwraps what the server wrapped
			const raw = await new LocalKmsClient(SECRET).decrypt(Buffer.from(b.encryptedKeyMaterial, 'base64'));
			if (raw.toString('base64') !== b.keyMaterial) return 'keyMaterial is not the unwrapped encryptedKeyMaterial';
			if (raw.length !== 34 || raw[0] !== 0x1a || raw[1] !== 32) return `not an AesGcmKey: ${hex(raw)}`;
		});
		await check('shared kek: a DEK the server makes for AES256_SIV', async () => {
			const r = await rest('POST', `/${kek}/deks/${encodeURIComponent('siv-' + topic)}`,
				{ subject: `siv-${topic}`, algorithm: 'AES256_SIV' });
			const raw = Buffer.from(r.body.keyMaterial || '', 'base64');
			if (r.status !== 200 || raw.length !== 66 || raw[0] !== 0x12 || raw[1] !== 64)
				return `got ${r.status} ${show(r.body)}`;
		});
	}

	// 7. data serialized before the rule existed still reads; new data is encrypted
	{
		const topic = `enc-avro-later-${RUN}`, kek = kekName('later');
		const v1 = person('before'), v2 = person('after');
		await check('rule added later: serialize without a rule', async () => {
			await register(`${topic}-value`, { schemaType: 'AVRO', schema: JSON.stringify(PERSON) });
			const bytes = await avroSer().serialize(topic, fresh(v1));
			if (plaintextAbsent(bytes, v1.ssn)) return 'the plain value is not in the bytes';
			keep('before the rule', 'avro', topic, bytes, v1);
		});
		await check('rule added later: serialize with the rule', async () => {
			await register(`${topic}-value`, { schemaType: 'AVRO', schema: JSON.stringify(PERSON), ruleSet: fieldRules(kek) });
			// a client of its own: the first one keeps the latest version it saw
			const bytes = await avroSer({}, new SchemaRegistryClient(conf)).serialize(topic, fresh(v2));
			if (!plaintextAbsent(bytes, v2.ssn)) return 'plaintext in the bytes';
			keep('after the rule', 'avro', topic, bytes, v2);
		});
	}

	// 8. references: the PII field of a referenced record is encrypted too
	{
		const topic = `enc-avro-ref-${RUN}`, kek = kekName('ref');
		const v = { name: 'Ann', home: { street: 'Elm St 1', city: 'Oslo' } };
		await check('references: register', async () => {
			await register(`enc-address-${RUN}`, { schemaType: 'AVRO', schema: JSON.stringify(ADDRESS) });
			await register(`${topic}-value`, {
				schemaType: 'AVRO', schema: JSON.stringify(PERSON_REF), ruleSet: fieldRules(kek),
				references: [{ name: 'test.enc.Address', subject: `enc-address-${RUN}`, version: 1 }],
			});
		});
		await check('references: serialize', async () => {
			const bytes = await avroSer().serialize(topic, fresh(v));
			if (!plaintextAbsent(bytes, 'Elm St 1', 'Ann')) return 'plaintext in the bytes';
			if (plaintextAbsent(bytes, 'Oslo')) return 'untagged field missing';
			keep('references', 'avro', topic, bytes, v);
		});
	}

	// 9. bytes Confluent's own client test wrote with a DEK of its own
	{
		const topic = `enc-avro-pre-${RUN}`, kek = kekName('pre');
		await check('preserialized: register the DEK another registry held', async () => {
			await register(`${topic}-value`, { schemaType: 'AVRO', schema: JSON.stringify(F1), ruleSet: fieldRules(kek) });
			let r = await rest('POST', '', { name: kek, kmsType: 'local-kms', kmsKeyId: 'mykey' });
			if (r.status !== 200) return `kek: ${r.status} ${show(r.body)}`;
			r = await rest('POST', `/${kek}/deks/${encodeURIComponent(topic + '-value')}`, {
				subject: `${topic}-value`, version: 1, algorithm: 'AES256_GCM',
				encryptedKeyMaterial: '07V2ndh02DA73p+dTybwZFm7DKQSZN1tEwQh+FoX1DZLk4Yj2LLu4omYjp/84tAg3BYlkfGSz+zZacJHIE4=',
			});
			if (r.status !== 200) return `dek: ${r.status} ${show(r.body)}`;
		});
		const id = (await client.getLatestSchemaMetadata(`${topic}-value`).catch(() => ({ id: 0 }))).id;
		const body = Buffer.from([104, 122, 103, 121, 47, 106, 70, 78, 77, 86, 47, 101, 70, 105, 108, 97, 72, 114,
			77, 121, 101, 66, 103, 100, 97, 86, 122, 114, 82, 48, 117, 100, 71, 101, 111, 116, 87, 56, 99, 65, 47, 74,
			97, 108, 55, 117, 107, 114, 43, 77, 47, 121, 122]);
		const header = Buffer.alloc(5);
		header.writeInt32BE(id, 1);
		keep('preserialized', 'avro', topic, Buffer.concat([header, body]), { f1: 'hello world' });
	}

	// 10. JSON Schema field encryption, with a nested object
	{
		const topic = `enc-json-${RUN}`, kek = kekName('json');
		const v = { id: 7, ssn: '123-45-json', photo: Buffer.from([9, 8, 7]).toString('base64'), card: { number: '4111-json', brand: 'visa' } };
		await check('json field: register', () =>
			register(`${topic}-value`, { schemaType: 'JSON', schema: JSON.stringify(JSON_PERSON), ruleSet: fieldRules(kek) }));
		await check('json field: serialize', async () => {
			const ser = new JsonSerializer(client, SerdeType.VALUE, { useLatestVersion: true, ruleConfig });
			const bytes = await ser.serialize(topic, fresh(v));
			if (!plaintextAbsent(bytes, v.ssn, v.card.number)) return 'plaintext in the bytes';
			keep('json field', 'json', topic, bytes, v);
		});
	}

	// 11. Protobuf field encryption (the client's Author: PII string, bytes, oneof), and payload encryption
	{
		const author = () => pb.create(example.AuthorSchema, {
			name: 'Kafka', id: 123, picture: Buffer.from([1, 2]), works: ['The Castle', 'The Trial'],
			piiOneof: { case: 'oneofString', value: 'oneof' },
		});
		const expectPb = m => canon({ name: m.name, id: m.id, picture: hex(m.picture), works: m.works, oneof: m.piiOneof.value });
		const schema = Buffer.from(pb.toBinary(wkt.FileDescriptorProtoSchema,
			example.file_test_schemaregistry_serde_example.proto)).toString('base64');
		for (const [what, rules] of [['field', fieldRules(kekName('pbf'))], ['payload', payloadRules(kekName('pbp'))]]) {
			const topic = `enc-pb-${what}-${RUN}`;
			await check(`protobuf ${what}: register`, () =>
				register(`${topic}-value`, { schemaType: 'PROTOBUF', schema, ruleSet: rules }));
			await check(`protobuf ${what}: serialize`, async () => {
				const ser = new ProtobufSerializer(client, SerdeType.VALUE, { useLatestVersion: true, ruleConfig });
				ser.registry.add(example.AuthorSchema);
				const m = author();
				const bytes = await ser.serialize(topic, m);
				if (!plaintextAbsent(bytes, 'Kafka')) return 'plaintext in the bytes';
				out.push({ name: `protobuf ${what}`, format: 'protobuf', topic, hex: hex(bytes), expect: expectPb(author()) });
			});
		}
	}

	// 12. concurrent creators of the same DEK: one creates it, the others get 409
	{
		const kek = kekName('conc'), subject = `conc-${RUN}`;
		await check('concurrent creation: one DEK', async () => {
			await rest('POST', '', { name: kek, kmsType: 'local-kms', kmsKeyId: 'mykey' });
			const rs = await Promise.all(Array.from({ length: 12 }, (_, i) =>
				rest('POST', `/${kek}/deks/${subject}`, { subject, encryptedKeyMaterial: Buffer.from(`m${i}`).toString('base64') })));
			const codes = rs.map(r => r.status).sort();
			if (codes.filter(c => c === 200).length !== 1 || codes.filter(c => c === 409).length !== 11)
				return `statuses ${show(codes)}`;
			if (!rs.every(r => r.status === 200 || r.body.error_code === 40971)) return 'a 409 without error_code 40971';
			const v = await rest('GET', `/${kek}/deks/${subject}/versions`);
			if (!eq(v.body, [1])) return `versions ${show(v.body)}`;
		});
	}

	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(file, JSON.stringify(out, null, 1));
}

// --- decode, in a process of its own -----------------------------------------
async function decode() {
	const msgs = JSON.parse(fs.readFileSync(file, 'utf8'));
	for (const m of msgs) {
		if (mode === 'shared' && !m.shared) continue;
		await check(`${mode === 'shared' ? 'no secret: ' : 'fresh client: '}decode ${m.name}`, async () => {
			const bytes = Buffer.from(m.hex, 'hex');
			let got;
			if (m.format === 'avro')
				got = canon(await new AvroDeserializer(client, SerdeType.VALUE, { ruleConfig }).deserialize(m.topic, bytes));
			else if (m.format === 'json')
				got = canon(await new JsonDeserializer(client, SerdeType.VALUE, { ruleConfig }).deserialize(m.topic, bytes));
			else {
				const x = await new ProtobufDeserializer(client, SerdeType.VALUE, { ruleConfig }).deserialize(m.topic, bytes);
				got = canon({ name: x.name, id: x.id, picture: hex(x.picture), works: x.works, oneof: x.piiOneof.value });
			}
			if (!eq(got, m.expect)) return `got ${show(got)}, want ${show(m.expect)}`;
		});
	}
	if (mode === 'shared')
		ok('no secret: a shared KEK\'s message was decoded', msgs.some(m => m.shared));
}

try {
	if (mode === 'encode') await encode();
	else await decode();
} catch (e) {
	ok(`${mode} ran to the end`, false, describe(e));
}
finish();
