"""A stand-in for the three fastavro functions that
confluent_kafka.schema_registry.avro imports (parse_schema,
schemaless_writer, schemaless_reader), built on Apache Avro's python3-avro.

Debian 12 packages python3-confluent-kafka but not python3-fastavro, so
without this the real AvroSerializer/AvroDeserializer cannot even be
imported.  install() puts it in sys.modules only when fastavro is missing;
the serializer code itself (registry lookups, magic byte, schema id) is
the unmodified Confluent code either way.
"""
import json
import sys
import types


class _Parsed(dict):
    """fastavro returns the schema as a dict; the serializer reads .get('name')."""
    avro_schema = None


def parse_schema(schema_dict):
    import avro.schema
    p = _Parsed(schema_dict)
    p.avro_schema = avro.schema.parse(json.dumps(schema_dict))
    return p


def schemaless_writer(fo, schema, record):
    import avro.io
    avro.io.DatumWriter(schema.avro_schema).write(record, avro.io.BinaryEncoder(fo))


def schemaless_reader(fo, writer_schema, reader_schema=None, return_record_name=False):
    import avro.io
    reader = reader_schema.avro_schema if reader_schema is not None else writer_schema.avro_schema
    return avro.io.DatumReader(writer_schema.avro_schema, reader).read(avro.io.BinaryDecoder(fo))


def install():
    """Returns 'fastavro' or 'python3-avro (fastavro shim)'."""
    try:
        import fastavro  # noqa: F401
        return "fastavro"
    except ImportError:
        pass
    mod = types.ModuleType("fastavro")
    mod.parse_schema = parse_schema
    mod.schemaless_writer = schemaless_writer
    mod.schemaless_reader = schemaless_reader
    sys.modules["fastavro"] = mod
    return "python3-avro (fastavro shim)"
