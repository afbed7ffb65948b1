/*
 * bench/avro_c_rate.c: the reference of bench/payload_rate.sh.
 *
 * Raw avro-c, no SQL: encode (avro_value_write of a generic value set
 * field by field) and decode (avro_value_read into a reused generic value)
 * of the small record payload_rate.sh uses, N times each, with the schema
 * and its value interface made once.  Prints two lines:
 *
 *   encode <ops per second>
 *   decode <ops per second>
 *
 *   cc -O2 -o avro_c_rate bench/avro_c_rate.c -lavro
 *   ./avro_c_rate [N]
 */
#include <avro.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char SCHEMA[] =
"{\"type\":\"record\",\"name\":\"User\",\"fields\":["
"{\"name\":\"id\",\"type\":\"long\"},"
"{\"name\":\"name\",\"type\":\"string\"},"
"{\"name\":\"email\",\"type\":[\"null\",\"string\"]},"
"{\"name\":\"zip\",\"type\":\"int\"},"
"{\"name\":\"score\",\"type\":\"double\"}]}";

/* seconds on the monotonic clock */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Fill the record as payload_rate.sh's SQL values are: row i. */
static void
fill(avro_value_t *rec, long i)
{
	avro_value_t f;
	avro_value_t branch;
	char		name[32];

	snprintf(name, sizeof(name), "user%ld", i);
	avro_value_get_by_index(rec, 0, &f, NULL);
	avro_value_set_long(&f, i);
	avro_value_get_by_index(rec, 1, &f, NULL);
	avro_value_set_string(&f, name);
	avro_value_get_by_index(rec, 2, &f, NULL);
	avro_value_set_branch(&f, 1, &branch);
	avro_value_set_string(&branch, "someone@example.com");
	avro_value_get_by_index(rec, 3, &f, NULL);
	avro_value_set_int(&f, (int) (i % 100000));
	avro_value_get_by_index(rec, 4, &f, NULL);
	avro_value_set_double(&f, i / 8.0);
}

int
main(int argc, char **argv)
{
	long		n = argc > 1 ? atol(argv[1]) : 1000000;
	avro_schema_t schema;
	avro_value_iface_t *iface;
	avro_value_t rec;
	char		buf[256];
	avro_writer_t writer;
	avro_reader_t reader;
	size_t		len = 0;
	double		t0;
	long		i;

	if (avro_schema_from_json_length(SCHEMA, strlen(SCHEMA), &schema) != 0)
	{
		fprintf(stderr, "schema: %s\n", avro_strerror());
		return 1;
	}
	iface = avro_generic_class_from_schema(schema);
	avro_generic_value_new(iface, &rec);
	writer = avro_writer_memory(buf, sizeof(buf));

	t0 = now();
	for (i = 0; i < n; i++)
	{
		fill(&rec, i);
		avro_writer_reset(writer);
		if (avro_value_write(writer, &rec) != 0)
		{
			fprintf(stderr, "write: %s\n", avro_strerror());
			return 1;
		}
	}
	printf("encode %.0f\n", n / (now() - t0));

	len = avro_writer_tell(writer);
	reader = avro_reader_memory(buf, len);
	t0 = now();
	for (i = 0; i < n; i++)
	{
		avro_reader_memory_set_source(reader, buf, len);
		if (avro_value_read(reader, &rec) != 0)
		{
			fprintf(stderr, "read: %s\n", avro_strerror());
			return 1;
		}
	}
	printf("decode %.0f\n", n / (now() - t0));
	avro_reader_free(reader);
	avro_writer_free(writer);
	avro_value_decref(&rec);
	avro_value_iface_decref(iface);
	avro_schema_decref(schema);
	return 0;
}
