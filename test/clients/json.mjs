// JSON Schema with the real node clients.  run.sh calls
//   node json.mjs encode DIR   register the schemas (kafkajs SchemaType.JSON,
//                              @confluentinc SchemaRegistryClient), check the
//                              REST answers, encode with kafkajs and with
//                              @confluentinc JsonSerializer, decode each
//                              other's bytes, compatibility and config through
//                              the clients, a schema with a reference; writes
//                              DIR/json-order.json (the schema text),
//                              DIR/json-ids.json, DIR/json-{kafkajs,confluent}.hex
//                              and the values they encode, for json_client.py
//   node json.mjs decode DIR   decode python's DIR/json-python.hex and SQL's
//                              DIR/json-sql.hex with both
import fs from 'node:fs';
import path from 'node:path';
import { require, URL_, RUN, check, eq, show, canon, finish, describe, expectRest } from './lib.mjs';

const sr = require('@confluentinc/schemaregistry');
const { SchemaRegistryClient, JsonSerializer, JsonDeserializer, SerdeType, Compatibility } = sr;
const { SchemaRegistry, SchemaType } = require('@kafkajs/confluent-schema-registry');

const [mode, dir] = process.argv.slice(2);
if (!['encode', 'decode'].includes(mode) || !dir) {
	console.error('usage: json.mjs encode|decode DIR');
	process.exit(2);
}
fs.mkdirSync(dir, { recursive: true });
const file = n => path.join(dir, n);
const conf = { baseURLs: [URL_], maxRetries: 0 };
const client = () => new SchemaRegistryClient(conf);
const topic = `json-${RUN}`;
const subject = `${topic}-value`;

// The order schema every client registers (python too, from json-order.json,
// with its own whitespace), a compatible evolution (a new optional property
// of a closed object) and an incompatible one (a property's type changed).
const ORDER = {
	$schema: 'http://json-schema.org/draft-07/schema#',
	title: 'Order',
	type: 'object',
	properties: {
		id: { type: 'string' },
		qty: { type: 'integer', minimum: 1 },
		price: { type: 'number' },
		note: { type: ['string', 'null'] },
		tags: { type: 'array', items: { type: 'string' } },
	},
	required: ['id', 'qty'],
	additionalProperties: false,
};
const ORDER_V2 = { ...ORDER, properties: { ...ORDER.properties, coupon: { type: 'string' } } };
const ORDER_BAD = { ...ORDER, properties: { ...ORDER.properties, qty: { type: 'string' } } };
const orderValue = who => ({ id: `ördér-${who}`, qty: 3, price: 9.25, note: null, tags: ['a', who] });

// a reference: the address schema is named by its $id, which both clients
// hand to ajv as the referenced schema's key
const ADDRESS_ID = 'https://example.com/schemas/address.json';
const ADDRESS = {
	$schema: 'http://json-schema.org/draft-07/schema#', $id: ADDRESS_ID, title: 'Address', type: 'object',
	properties: { street: { type: 'string' }, city: { type: 'string' } }, required: ['street'],
};
const PERSON = {
	$schema: 'http://json-schema.org/draft-07/schema#', title: 'Person', type: 'object',
	properties: { name: { type: 'string' }, home: { $ref: ADDRESS_ID } }, required: ['name', 'home'],
};
const personValue = { name: 'Ada', home: { street: '1 Main St', city: 'Zürich' } };
// a draft 2020-12 document: a tuple with prefixItems, a definition under $defs
const POINT = {
	$schema: 'https://json-schema.org/draft/2020-12/schema', title: 'Point', type: 'object',
	properties: { at: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false, minItems: 2 },
		label: { $ref: '#/$defs/label' } },
	required: ['at'],
	$defs: { label: { type: 'string', maxLength: 20 } },
};

// GET a REST path: its status and JSON body
async function getJson(p) {
	const r = await fetch(URL_ + p);
	return { status: r.status, body: await r.json() };
}
const hex = b => Buffer.from(b).toString('hex');
const header = (buf, id) => buf[0] === 0 && buf.readInt32BE(1) === id
	? undefined : `header ${hex(buf.subarray(0, 5))}, want id ${id}`;

if (mode === 'encode') {
	const kjs = new SchemaRegistry({ host: URL_ });
	const ids = {};
	fs.writeFileSync(file('json-order.json'), JSON.stringify(ORDER, null, 2));
	fs.writeFileSync(file('json-subject.txt'), subject);

	// registration and the REST answers
	await check('json kafkajs register (SchemaType.JSON)', async () => {
		const r = await kjs.register({ type: SchemaType.JSON, schema: JSON.stringify(ORDER) }, { subject });
		ids.order = r.id;
		if (!Number.isInteger(r.id) || r.id <= 0) return `bad id ${show(r)}`;
	});
	await check('json GET /schemas/ids/{id}: schemaType JSON, the compact document', async () => {
		const { status, body } = await getJson(`/schemas/ids/${ids.order}`);
		if (status !== 200 || body.schemaType !== 'JSON' || body.schema !== JSON.stringify(ORDER)) return show(body);
	});
	await check('json @confluentinc register the same schema pretty-printed: same id', async () => {
		const id = await client().register(subject, { schemaType: 'JSON', schema: JSON.stringify(ORDER, null, 4) });
		if (id !== ids.order) return `got ${id}, want ${ids.order}`;
		const versions = await client().getAllVersions(subject);
		if (!eq(versions, [1])) return `versions ${show(versions)}`;
	});
	await check('json @confluentinc getBySubjectAndId / getLatestSchemaMetadata', async () => {
		const s = await client().getBySubjectAndId(subject, ids.order);
		if (s.schemaType !== 'JSON' || !eq(JSON.parse(s.schema), ORDER)) return show(s);
		const m = await client().getLatestSchemaMetadata(subject);
		if (m.id !== ids.order || m.version !== 1 || m.schemaType !== 'JSON') return show(m);
	});
	await check('json @confluentinc getId (lookup) and kafkajs getRegistryIdBySchema', async () => {
		const a = await client().getId(subject, { schemaType: 'JSON', schema: JSON.stringify(ORDER) });
		const b = await new SchemaRegistry({ host: URL_ }).getRegistryIdBySchema(subject,
			{ type: SchemaType.JSON, schema: JSON.stringify(ORDER) });
		if (a !== ids.order || b !== ids.order) return `got ${a}, ${b}, want ${ids.order}`;
	});
	// examples are an array of any values (the meta-schemas; Confluent 8 accepts them)
	await check('json @confluentinc register a schema whose examples are numbers, and JsonSerializer (validate) encodes with it', async () => {
		const s = `${topic}-examples-value`;
		const doc = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object',
			properties: { age: { type: 'integer', examples: [25, 30, 45] }, tags: { type: 'array', examples: [['a'], null, { k: 1 }] } } };
		const id = await client().register(s, { schemaType: 'JSON', schema: JSON.stringify(doc) });
		const ser = new JsonSerializer(client(), SerdeType.VALUE, { autoRegisterSchemas: false, useLatestVersion: true, validate: true });
		const buf = await ser.serialize(`${topic}-examples`, { age: 30, tags: ['x'] });
		return header(buf, id);
	});
	await check('json @confluentinc register an invalid JSON schema: 422 / 42201', () =>
		expectRest(() => client().register(`${subject}-bad`, { schemaType: 'JSON', schema: '{"type":5}' }), 422, 42201));

	// encode with both, decode each other's bytes
	const values = { kafkajs: orderValue('kafkajs'), confluent: orderValue('confluent'), python: orderValue('python'),
		point: { at: [1.5, -2], label: 'origin-ish' } };
	fs.writeFileSync(file('json-values.json'), JSON.stringify(values));
	fs.writeFileSync(file('json-point.json'), JSON.stringify(POINT, null, 1));
	await check('json kafkajs encode', async () => {
		const buf = await kjs.encode(ids.order, values.kafkajs);
		fs.writeFileSync(file('json-kafkajs.hex'), hex(buf));
		if (!eq(JSON.parse(buf.subarray(5).toString()), values.kafkajs)) return `payload ${buf.subarray(5)}`;
		return header(buf, ids.order);
	});
	await check('json @confluentinc JsonSerializer (useLatestVersion, validate) encode', async () => {
		const ser = new JsonSerializer(client(), SerdeType.VALUE, { autoRegisterSchemas: false, useLatestVersion: true, validate: true });
		const buf = await ser.serialize(topic, values.confluent);
		fs.writeFileSync(file('json-confluent.hex'), hex(buf));
		return header(buf, ids.order);
	});
	await check('json kafkajs encode refuses a value the schema does not allow', async () => {
		try {
			await kjs.encode(ids.order, { id: 'x', qty: 0 });
			return 'no error';
		} catch (e) {
			if (e.name !== 'ConfluentSchemaRegistryValidationError') return describe(e);
		}
	});
	await check('json @confluentinc JsonSerializer (validate) refuses an extra property', async () => {
		const ser = new JsonSerializer(client(), SerdeType.VALUE, { autoRegisterSchemas: false, useLatestVersion: true, validate: true });
		try {
			await ser.serialize(topic, { ...values.confluent, extra: 1 });
			return 'no error';
		} catch (e) {
			if (!/Invalid message/.test(e.message)) return describe(e);
		}
	});
	const decoders = {
		kafkajs: buf => new SchemaRegistry({ host: URL_ }).decode(buf),
		confluent: buf => new JsonDeserializer(client(), SerdeType.VALUE, { validate: true }).deserialize(topic, buf),
	};
	for (const [dec, decode] of Object.entries(decoders)) {
		for (const enc of ['kafkajs', 'confluent']) {
			await check(`json ${enc} bytes -> ${dec} decode`, async () => {
				const buf = Buffer.from(fs.readFileSync(file(`json-${enc}.hex`), 'utf8'), 'hex');
				// registry.encode takes jsonb, which keeps an object's keys in
				// its own order: compare values, not texts
				const back = await decode(buf);
				if (!eq(canon(back), canon(values[enc]))) return `decoded ${show(back)}, want ${show(values[enc])}`;
			});
		}
	}

	// compatibility and config through the clients
	await check('json @confluentinc testSubjectCompatibility: a new optional property of a closed object', async () => {
		const r = await client().testSubjectCompatibility(subject, { schemaType: 'JSON', schema: JSON.stringify(ORDER_V2) });
		if (r !== true) return `got ${show(r)}`;
	});
	await check('json @confluentinc testCompatibility(subject, 1): a property\'s type changed is incompatible', async () => {
		const r = await client().testCompatibility(subject, 1, { schemaType: 'JSON', schema: JSON.stringify(ORDER_BAD) });
		if (r !== false) return `got ${show(r)}`;
	});
	await check('json verbose compatibility names TYPE_CHANGED at #/properties/qty', async () => {
		const r = await fetch(`${URL_}/compatibility/subjects/${encodeURIComponent(subject)}/versions/latest?verbose=true`, {
			method: 'POST', headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json' },
			body: JSON.stringify({ schemaType: 'JSON', schema: JSON.stringify(ORDER_BAD) }),
		});
		const body = await r.json();
		if (r.status !== 200 || body.is_compatible !== false || !body.messages.some(m =>
			m.startsWith('{errorType:"TYPE_CHANGED"') && m.includes('#/properties/qty'))) return show(body);
	});
	await check('json @confluentinc register incompatible: 409', () =>
		expectRest(() => client().register(subject, { schemaType: 'JSON', schema: JSON.stringify(ORDER_BAD) }), 409, 40901));
	await check('json kafkajs register incompatible is refused', async () => {
		try {
			await kjs.register({ type: SchemaType.JSON, schema: JSON.stringify(ORDER_BAD) }, { subject });
			return 'no error';
		} catch (e) {
			if (e.status !== 409) return describe(e);
		}
	});
	await check('json @confluentinc register v2', async () => {
		ids.orderV2 = await client().register(subject, { schemaType: 'JSON', schema: JSON.stringify(ORDER_V2) });
		const versions = await client().getAllVersions(subject);
		if (!eq(versions, [1, 2])) return `versions ${show(versions)}`;
	});
	await check('json @confluentinc updateConfig(FULL) / getConfig, then FULL refuses a removed property', async () => {
		const u = await client().updateConfig(subject, { compatibility: Compatibility.FULL });
		if (u.compatibility !== 'FULL') return `update returned ${show(u)}`;
		const c = await client().getConfig(subject);
		if (c.compatibilityLevel !== 'FULL') return `getConfig returned ${show(c)}`;
		// FULL: v2 without tags cannot read v2 data that has tags (closed object)
		const noTags = { ...ORDER_V2, properties: { ...ORDER_V2.properties } };
		delete noTags.properties.tags;
		const r = await client().testSubjectCompatibility(subject, { schemaType: 'JSON', schema: JSON.stringify(noTags) });
		if (r !== false) return `FULL compatibility of a removed property: ${show(r)}`;
		await client().updateConfig(subject, { compatibility: Compatibility.BACKWARD });
	});
	await check('json JsonSerializer useLatestVersion now writes v2', async () => {
		const ser = new JsonSerializer(client(), SerdeType.VALUE, { autoRegisterSchemas: false, useLatestVersion: true, validate: true });
		const buf = await ser.serialize(topic, { ...values.confluent, coupon: 'C1' });
		const back = await new JsonDeserializer(client(), SerdeType.VALUE, { validate: true }).deserialize(topic, buf);
		if (back.coupon !== 'C1') return show(back);
		return header(buf, ids.orderV2);
	});
	await check('json JsonSerializer autoRegisterSchemas registers its own schema', async () => {
		const t = `json-auto-${RUN}`;
		const ser = new JsonSerializer(client(), SerdeType.VALUE, { autoRegisterSchemas: true });
		const buf = await ser.serialize(t, { a: 1, b: 'x', c: [true] });
		const m = await client().getLatestSchemaMetadata(`${t}-value`);
		if (m.schemaType !== 'JSON' || buf.readInt32BE(1) !== m.id) return show(m);
		const back = await new JsonDeserializer(client(), SerdeType.VALUE, {}).deserialize(t, buf);
		if (!eq(back, { a: 1, b: 'x', c: [true] })) return show(back);
	});

	// a schema with a reference, through both clients
	const addrSubject = `json-address-${RUN}`;
	const personTopic = `json-person-${RUN}`;
	const refs = [{ name: ADDRESS_ID, subject: addrSubject, version: 1 }];
	await check('json @confluentinc register a schema and one that references it by $id', async () => {
		ids.address = await client().register(addrSubject, { schemaType: 'JSON', schema: JSON.stringify(ADDRESS) });
		ids.person = await client().register(`${personTopic}-value`,
			{ schemaType: 'JSON', schema: JSON.stringify(PERSON), references: refs });
		const { body } = await getJson(`/schemas/ids/${ids.person}`);
		if (!eq(body.references, refs)) return show(body);
		const by = await getJson(`/subjects/${addrSubject}/versions/1/referencedby`);
		if (!eq(by.body, [ids.person])) return `referencedby ${show(by.body)}`;
	});
	await check('json kafkajs register with references: the same id', async () => {
		const r = await new SchemaRegistry({ host: URL_ }).register(
			{ type: SchemaType.JSON, schema: JSON.stringify(PERSON), references: refs }, { subject: `${personTopic}-value` });
		if (r.id !== ids.person) return `got ${show(r)}, want ${ids.person}`;
	});
	await check('json the referenced version cannot be deleted: 422 / 42206', () =>
		expectRest(() => client().deleteSubjectVersion(addrSubject, 1, false), 422, 42206));
	let personBufs = {};
	await check('json @confluentinc JsonSerializer with a reference (validate) and kafkajs encode', async () => {
		const ser = new JsonSerializer(client(), SerdeType.VALUE, { autoRegisterSchemas: false, useLatestVersion: true, validate: true });
		personBufs.confluent = await ser.serialize(personTopic, personValue);
		personBufs.kafkajs = await new SchemaRegistry({ host: URL_ }).encode(ids.person, personValue);
		return header(personBufs.confluent, ids.person) ?? header(personBufs.kafkajs, ids.person);
	});
	await check('json a value the referenced schema refuses is refused by both', async () => {
		const bad = { name: 'Bob', home: { city: 'nowhere' } };
		let refusals = 0;
		try { await new SchemaRegistry({ host: URL_ }).encode(ids.person, bad); } catch (e) { refusals++; }
		try {
			await new JsonSerializer(client(), SerdeType.VALUE, { autoRegisterSchemas: false, useLatestVersion: true, validate: true })
				.serialize(personTopic, bad);
		} catch (e) { refusals++; }
		if (refusals !== 2) return `${refusals} of 2 refused`;
	});
	for (const [enc, buf] of [['confluent', () => personBufs.confluent], ['kafkajs', () => personBufs.kafkajs]]) {
		await check(`json ${enc} bytes with a reference -> both decoders`, async () => {
			if (!buf()) return 'nothing encoded';
			const a = await new JsonDeserializer(client(), SerdeType.VALUE, { validate: true }).deserialize(personTopic, buf());
			const b = await new SchemaRegistry({ host: URL_ }).decode(buf());
			if (!eq(a, personValue) || !eq(b, personValue)) return `decoded ${show(a)} / ${show(b)}`;
		});
	}
	// a draft 2020-12 schema ($defs, prefixItems): @confluentinc validates it
	// with Ajv2020 (kafkajs's Ajv knows drafts up to 07 only)
	const t2020 = `json-2020-${RUN}`;
	await check('json draft 2020-12 ($defs, prefixItems): register, JsonSerializer / JsonDeserializer with validate', async () => {
		ids.point = await client().register(`${t2020}-value`, { schemaType: 'JSON', schema: JSON.stringify(POINT) });
		const ser = new JsonSerializer(client(), SerdeType.VALUE, { autoRegisterSchemas: false, useLatestVersion: true, validate: true });
		const buf = await ser.serialize(t2020, values.point);
		fs.writeFileSync(file('json-point.hex'), hex(buf));
		const back = await new JsonDeserializer(client(), SerdeType.VALUE, { validate: true }).deserialize(t2020, buf);
		if (!eq(back, values.point)) return `decoded ${show(back)}`;
		return header(buf, ids.point);
	});
	await check('json draft 2020-12: a value prefixItems refuses is refused', async () => {
		const ser = new JsonSerializer(client(), SerdeType.VALUE, { autoRegisterSchemas: false, useLatestVersion: true, validate: true });
		try {
			await ser.serialize(t2020, { ...values.point, at: ['x', 2] });
			return 'no error';
		} catch (e) {
			if (!/Invalid message/.test(e.message)) return describe(e);
		}
	});
	fs.writeFileSync(file('json-ids.json'), JSON.stringify({ ...ids, addrSubject, addressId: ADDRESS_ID }));
} else {
	const values = JSON.parse(fs.readFileSync(file('json-values.json'), 'utf8'));
	const ids = JSON.parse(fs.readFileSync(file('json-ids.json'), 'utf8'));
	const decoders = {
		kafkajs: buf => new SchemaRegistry({ host: URL_ }).decode(buf),
		confluent: buf => new JsonDeserializer(client(), SerdeType.VALUE, { validate: true }).deserialize(topic, buf),
	};
	// python's bytes, and those registry.encode wrote (sql_payload.py)
	for (const enc of ['python', 'sql']) {
		for (const [dec, decode] of Object.entries(decoders)) {
			await check(`json ${enc} bytes -> ${dec} decode`, async () => {
				if (!fs.existsSync(file(`json-${enc}.hex`))) return `no json-${enc}.hex (the ${enc} encode failed)`;
				const buf = Buffer.from(fs.readFileSync(file(`json-${enc}.hex`), 'utf8').trim(), 'hex');
				// registry.encode takes jsonb, which keeps an object's keys in
				// its own order: compare values, not texts
				const back = await decode(buf);
				if (!eq(canon(back), canon(values[enc]))) return `decoded ${show(back)}, want ${show(values[enc])}`;
				return header(buf, ids.order);
			});
		}
	}
	// clean up: the referring subject first, then the referenced one
	await check('json delete the subjects (referrer first)', async () => {
		for (const s of [`json-person-${RUN}-value`, ids.addrSubject, subject, `json-auto-${RUN}-value`, `json-2020-${RUN}-value`]) {
			await client().deleteSubject(s, false);
			await client().deleteSubject(s, true);
		}
	});
}
finish();
