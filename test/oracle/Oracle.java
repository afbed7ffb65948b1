/*
 * Oracle.java
 *	  The Avro Java side of the differential oracle (test/oracle/run.sh).
 *
 * Reads pairs "id<TAB>schemaA<TAB>schemaB" from stdin, one a line, and
 * for each prints, tab-separated:
 *
 *	id  A     Schema.toString() of A, or PARSE_ERROR
 *	id  B     the same for B
 *	id  A#pcf Parsing Canonical Form of A and its CRC-64-AVRO fingerprint
 *	id  B#pcf the same for B
 *	id  A<-B  checkReaderWriterCompatibility(reader A, writer B).getType()
 *	id  B<-A  the other way
 *
 * A verdict is COMPATIBLE, INCOMPATIBLE, ERROR (the check threw) or SKIP
 * (a schema did not parse).  Defaults are validated, as Avro 1.9+ does by
 * default (1.8.2 does not unless asked).  oracle_c.c prints the same from
 * our core.
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;

public class Oracle
{
	/* A fresh parser per schema: each text stands alone. */
	static Schema parse(String text)
	{
		try
		{
			return new Schema.Parser().setValidateDefaults(true).parse(text);
		}
		catch (Exception e)
		{
			return null;
		}
	}

	/* One direction of the check, as a word. */
	static String verdict(Schema reader, Schema writer)
	{
		if (reader == null || writer == null)
			return "SKIP";
		try
		{
			return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer)
				.getType().toString();
		}
		catch (Exception e)
		{
			return "ERROR";
		}
	}

	/* Parsing Canonical Form and fingerprint, as "<pcf> <16 hex digits>". */
	static String pcf(Schema s)
	{
		if (s == null)
			return "PARSE_ERROR";
		String form = SchemaNormalization.toParsingForm(s);

		return form + " " + String.format("%016x",
			SchemaNormalization.fingerprint64(form.getBytes(StandardCharsets.UTF_8)));
	}

	public static void main(String[] args) throws Exception
	{
		BufferedReader in = new BufferedReader(
			new InputStreamReader(System.in, StandardCharsets.UTF_8));
		PrintStream out = new PrintStream(System.out, false, "UTF-8");
		String line;

		while ((line = in.readLine()) != null)
		{
			String[] parts = line.split("\t", -1);

			if (parts.length != 3)
				continue;
			Schema a = parse(parts[1]);
			Schema b = parse(parts[2]);

			out.println(parts[0] + "\tA\t" + (a == null ? "PARSE_ERROR" : a.toString()));
			out.println(parts[0] + "\tB\t" + (b == null ? "PARSE_ERROR" : b.toString()));
			out.println(parts[0] + "\tA#pcf\t" + pcf(a));
			out.println(parts[0] + "\tB#pcf\t" + pcf(b));
			out.println(parts[0] + "\tA<-B\t" + verdict(a, b));
			out.println(parts[0] + "\tB<-A\t" + verdict(b, a));
		}
		out.flush();
	}
}
