-- The audit row of a table with no secret column (0014's audit_shown) without a function call per
-- column: the row's JSON less its ignored columns, which is what the per-column walk built for it.
-- The walk called audit_is_secret for every column of every row, and a charge run of 5,000 students
-- writes 16,000 audited rows in three statements: on the embedded database it was about 3 s of the
-- run's 7.7 s (issue 29, ADR 052). Tables with redacted columns, and settings (whose jwt_secret and
-- vapid_keys rows are secret), still walk every column. Same rows in the log, same triggers.
CREATE OR REPLACE FUNCTION audit_shown(source_table text, row_value jsonb, ignored text[], redacted text[]) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN cardinality(redacted) = 0 AND source_table <> 'settings' THEN row_value - ignored
    ELSE (SELECT coalesce(jsonb_object_agg(e.key, CASE WHEN audit_is_secret(source_table, row_value, e.key, redacted)
                                                      THEN '"[redacted]"'::jsonb ELSE e.value END), '{}')
            FROM jsonb_each(row_value) e
           WHERE NOT (e.key = ANY (ignored)))
  END
$$;
