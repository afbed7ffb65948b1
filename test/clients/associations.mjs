// @confluentinc/schemaregistry's AssociatedNameStrategy (its default subject
// name strategy) against the registry's associations (Confluent 8.2+): the
// subject of a topic's key and of its value found through an association
// created with createAssociation, the Kafka cluster id as the namespace,
// TopicNameStrategy when the topic has no association, and the client's
// cache answering repeated calls (association lookups counted by a proxy
// in front of the registry).
import http from 'node:http';
import { require, URL_, RUN, check, show, finish } from './lib.mjs';

const sr = require('@confluentinc/schemaregistry');
const { SchemaRegistryClient, AvroSerializer, AvroDeserializer, SerdeType, SubjectNameStrategyType,
	KAFKA_CLUSTER_ID, LifecyclePolicy } = sr;

// a proxy that forwards every request to the registry and counts the
// association lookups by resource name
const target = new URL(URL_);
const lookups = [];
const proxy = http.createServer((req, res) => {
	if (req.url.startsWith('/associations/resources/')) lookups.push(`${req.method} ${req.url}`);
	const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method,
		headers: req.headers }, (r) => { res.writeHead(r.statusCode, r.headers); r.pipe(res); });
	up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
	req.pipe(up);
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const PROXY = `http://127.0.0.1:${proxy.address().port}`;

const CLUSTER = `lkc-${RUN}`;
const topic = `assoc-${RUN}`;
const keySubject = `assoc-${RUN}-custom-key`;
const valueSubject = `assoc-${RUN}-custom-value`;
const KEY_SCHEMA = { type: 'record', name: 'OrderKey', fields: [{ name: 'id', type: 'long' }] };
const VALUE_SCHEMA = { type: 'record', name: 'Order', fields: [{ name: 'id', type: 'long' }, { name: 'item', type: 'string' }] };
const info = (s) => ({ schemaType: 'AVRO', schema: JSON.stringify(s) });
const admin = new SchemaRegistryClient({ baseURLs: [URL_], maxRetries: 0 });

// the schema id a serialized message carries (magic byte 0, then 4 bytes)
const wireId = (buf) => (buf[0] === 0 ? buf.readInt32BE(1) : -1);

let keyId, valueId;
await check('associations: register the key and value schemas under subjects not named after the topic', async () => {
	keyId = await admin.register(keySubject, info(KEY_SCHEMA));
	valueId = await admin.register(valueSubject, info(VALUE_SCHEMA));
	if (!(keyId > 0 && valueId > 0)) return `ids ${keyId} ${valueId}`;
});
await check('associations: createAssociation ties the topic (in its cluster) to both subjects', async () => {
	const r = await admin.createAssociation({
		resourceName: topic, resourceNamespace: CLUSTER, resourceId: `${CLUSTER}:${topic}`, resourceType: 'topic',
		associations: [
			{ subject: keySubject, associationType: 'key', lifecycle: LifecyclePolicy.WEAK },
			{ subject: valueSubject, associationType: 'value', lifecycle: LifecyclePolicy.STRONG },
		],
	});
	if (r.resourceId !== `${CLUSTER}:${topic}` || r.associations?.length !== 2
		|| r.associations[1].lifecycle !== 'STRONG') return show(r);
});
await check('associations: getAssociationsByResourceName finds the value association in the cluster', async () => {
	const a = await admin.getAssociationsByResourceName(topic, CLUSTER, 'topic', ['value'], null, 0, -1);
	if (a.length !== 1 || a[0].subject !== valueSubject || a[0].resourceNamespace !== CLUSTER) return show(a);
});

// serializers through the proxy, with the associated name strategy and the cluster id
const viaProxy = () => new SchemaRegistryClient({ baseURLs: [PROXY], maxRetries: 0 });
const assocConf = (cluster) => ({
	autoRegisterSchemas: false, useLatestVersion: true,
	subjectNameStrategyType: SubjectNameStrategyType.ASSOCIATED,
	subjectNameStrategyConfig: cluster ? { [KAFKA_CLUSTER_ID]: cluster } : {},
});
const client = viaProxy();
const keySer = new AvroSerializer(client, SerdeType.KEY, assocConf(CLUSTER));
const valueSer = new AvroSerializer(client, SerdeType.VALUE, assocConf(CLUSTER));
const key = { id: 7 };
const value = { id: 7, item: 'book' };
let keyBytes, valueBytes;
await check('associations: the key serializer uses the key association\'s subject', async () => {
	keyBytes = await keySer.serialize(topic, key);
	if (wireId(keyBytes) !== keyId) return `schema id ${wireId(keyBytes)}, want ${keyId} (${keySubject})`;
});
await check('associations: the value serializer uses the value association\'s subject', async () => {
	valueBytes = await valueSer.serialize(topic, value);
	if (wireId(valueBytes) !== valueId) return `schema id ${wireId(valueBytes)}, want ${valueId} (${valueSubject})`;
});
// (the strategy caches per topic, key or value, and schema: a first
// serialize asks for its subject without and with the schema, two lookups)
await check('associations: the lookups asked for the topic in the cluster, for the key and the value', async () => {
	const want = new Set([`GET /associations/resources/${CLUSTER}/${topic}?resourceType=topic&associationType=key`,
		`GET /associations/resources/${CLUSTER}/${topic}?resourceType=topic&associationType=value`]);
	if (lookups.length === 0 || lookups.some((l) => !want.has(l)) || new Set(lookups).size !== 2) return show(lookups);
});
await check('associations: repeated serializations are served from the strategy\'s cache (no more lookups)', async () => {
	const before = lookups.length;
	for (let i = 0; i < 5; i++) {
		const k = await keySer.serialize(topic, key);
		const v = await valueSer.serialize(topic, value);
		if (wireId(k) !== keyId || wireId(v) !== valueId) return `ids ${wireId(k)} ${wireId(v)}`;
	}
	if (lookups.length !== before) return `${lookups.length - before} more lookups: ${show(lookups.slice(before))}`;
});
await check('associations: a deserializer with the same strategy reads both back', async () => {
	const kd = new AvroDeserializer(viaProxy(), SerdeType.KEY, assocConf(CLUSTER));
	const vd = new AvroDeserializer(viaProxy(), SerdeType.VALUE, assocConf(CLUSTER));
	const k = await kd.deserialize(topic, keyBytes);
	const v = await vd.deserialize(topic, valueBytes);
	if (Number(k.id) !== 7 || Number(v.id) !== 7 || v.item !== 'book') return show({ k: String(k.id), v: v.item });
});

// no association: TopicNameStrategy, the default fallback
const lone = `assoc-${RUN}-lone`;
await check('associations: a topic without association falls back to {topic}-value', async () => {
	const id = await admin.register(`${lone}-value`, info({ ...VALUE_SCHEMA, doc: 'lone' }));
	const before = lookups.length;
	const bytes = await new AvroSerializer(viaProxy(), SerdeType.VALUE, assocConf(CLUSTER)).serialize(lone, value);
	if (wireId(bytes) !== id) return `schema id ${wireId(bytes)}, want ${id} (${lone}-value)`;
	const asked = lookups.slice(before);
	if (asked.length === 0 || asked.some((l) => !l.startsWith(`GET /associations/resources/${CLUSTER}/${lone}?`)))
		return `lookups ${show(asked)}`;
});
await check('associations: in another cluster the topic has no association, so it falls back too', async () => {
	const id = await admin.register(`${topic}-value`, info({ ...VALUE_SCHEMA, doc: 'fallback' }));
	if (id === valueId) return `the fallback subject's schema has the associated one's id ${id}`;
	const bytes = await new AvroSerializer(viaProxy(), SerdeType.VALUE, assocConf(`lkc-other-${RUN}`)).serialize(topic, value);
	if (wireId(bytes) !== id) return `schema id ${wireId(bytes)}, want ${id} (${topic}-value)`;
});
await check('associations: without a cluster id the namespace is "-", any cluster', async () => {
	const bytes = await new AvroSerializer(viaProxy(), SerdeType.VALUE, assocConf(null)).serialize(topic, value);
	if (wireId(bytes) !== valueId) return `schema id ${wireId(bytes)}, want ${valueId}`;
	if (!lookups.at(-1).startsWith(`GET /associations/resources/-/${topic}?`)) return lookups.at(-1);
});

await check('associations: deleteAssociations with cascade deletes the STRONG value subject, not the WEAK key one', async () => {
	await admin.deleteAssociations(`${CLUSTER}:${topic}`, 'topic', null, true);
	const a = await admin.getAssociationsByResourceName(topic, CLUSTER, 'topic', [], null, 0, -1);
	if (a.length !== 0) return `left ${show(a)}`;
	const subjects = await admin.getAllSubjects();
	if (subjects.includes(valueSubject)) return `${valueSubject} is still there`;
	if (!subjects.includes(keySubject)) return `${keySubject} is gone`;
});

proxy.close();
finish();
