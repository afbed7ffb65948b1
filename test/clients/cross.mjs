// Cross-client wire format: bytes written by one client are read by the
// others.  run.sh calls
//   node cross.mjs encode DIR   register the schema, write DIR/kafkajs.hex and
//                               DIR/confluent.hex, DIR/schema.json and the
//                               values each encoder used (DIR/value-*.json,
//                               python's too, for python_cross.py)
//   node cross.mjs decode DIR   read the others' bytes with both node clients,
//                               SQL's too (sql_payload.py: sql.hex, sql-payment.hex)
import fs from 'node:fs';
import path from 'node:path';
import { require, URL_, RUN, check, eq, show, canon, finish, USER_SCHEMA, userValue } from './lib.mjs';

const { SchemaRegistry, SchemaType } = require('@kafkajs/confluent-schema-registry');
const { SchemaRegistryClient, AvroSerializer, AvroDeserializer, SerdeType } = require('@confluentinc/schemaregistry');

const [mode, dir] = process.argv.slice(2);
const topic = `cross-${RUN}`;
const subject = `${topic}-value`;
const conf = { baseURLs: [URL_], maxRetries: 0 };
const file = n => path.join(dir, n);
const readHex = n => Buffer.from(fs.readFileSync(file(n), 'utf8').trim(), 'hex');
const expected = enc => JSON.parse(fs.readFileSync(file(`value-${enc}.json`), 'utf8'));

if (mode === 'encode') {
	fs.writeFileSync(file('schema.json'), JSON.stringify(USER_SCHEMA));
	for (const enc of ['kafkajs', 'confluent', 'python'])
		fs.writeFileSync(file(`value-${enc}.json`), JSON.stringify(canon(userValue(`from-${enc}`))));
	const registry = new SchemaRegistry({ host: URL_ });
	let id;
	await check('cross register the schema (kafkajs)', async () => {
		({ id } = await registry.register({ type: SchemaType.AVRO, schema: JSON.stringify(USER_SCHEMA) }, { subject }));
	});
	await check('cross encode with kafkajs', async () => {
		const buf = await registry.encode(id, userValue('from-kafkajs'));
		fs.writeFileSync(file('kafkajs.hex'), buf.toString('hex'));
	});
	await check('cross encode with @confluentinc AvroSerializer (autoRegister false, useLatestVersion)', async () => {
		const ser = new AvroSerializer(new SchemaRegistryClient(conf), SerdeType.VALUE,
			{ autoRegisterSchemas: false, useLatestVersion: true });
		const buf = await ser.serialize(topic, userValue('from-confluent'));
		if (buf.readInt32BE(1) !== id) return `id ${buf.readInt32BE(1)}, want ${id}`;
		fs.writeFileSync(file('confluent.hex'), buf.toString('hex'));
	});
} else if (mode === 'decode') {
	const registry = new SchemaRegistry({ host: URL_ });
	const de = new AvroDeserializer(new SchemaRegistryClient(conf), SerdeType.VALUE, {});
	const decoders = {
		kafkajs: buf => registry.decode(buf),
		confluent: buf => de.deserialize(topic, buf),
	};
	for (const [dec, decode] of Object.entries(decoders)) {
		for (const enc of ['kafkajs', 'confluent', 'python', 'sql']) {
			if (enc === dec) continue;
			await check(`cross ${enc} bytes -> ${dec} decode`, async () => {
				if (!fs.existsSync(file(`${enc}.hex`))) return `no ${enc}.hex (the ${enc} encode failed)`;
				const back = canon(await decode(readHex(`${enc}.hex`)));
				if (!eq(back, expected(enc))) return `decoded ${show(back)}, want ${show(expected(enc))}`;
			});
		}
	}
	// SQL's Payment (logical types, a reference: sql_payload.py): each node
	// client reads it and writes the same bytes again from what it read
	const pay = fs.existsSync(file('sql-payment.json')) ? JSON.parse(fs.readFileSync(file('sql-payment.json'), 'utf8')) : null;
	const ptopic = pay ? pay.subject.replace(/-value$/, '') : '';
	const reencoders = {
		kafkajs: async buf => registry.encode(pay.id, await registry.decode(buf)),
		confluent: async buf => {
			const v = await de.deserialize(ptopic, buf);
			const ser = new AvroSerializer(new SchemaRegistryClient(conf), SerdeType.VALUE,
				{ autoRegisterSchemas: false, useSchemaId: pay.id });
			return ser.serialize(ptopic, v);
		},
	};
	for (const [dec, reencode] of Object.entries(reencoders)) {
		await check(`cross sql Payment bytes (logical types, a reference) -> ${dec} decode and encode: the same bytes`, async () => {
			if (!pay) return 'no sql-payment.json (the SQL encode failed)';
			const buf = readHex('sql-payment.hex');
			const back = Buffer.from(await reencode(buf));
			if (!back.equals(buf)) return `${dec} wrote ${back.toString('hex')}, SQL wrote ${buf.toString('hex')}`;
		});
	}
} else {
	console.error('usage: cross.mjs encode|decode DIR');
	process.exit(2);
}
finish();
