-- Custom migration: what drizzle-kit cannot express.

-- 1. Working intervals of one day must not overlap (marpe_rules promises sorted, disjoint hours).
--    A range type over `time` lets a GiST exclusion constraint say so; adjacent intervals
--    ([08:00,12:00) and [12:00,16:00)) do not overlap.
CREATE FUNCTION marpe_time_subtype_diff(x time, y time) RETURNS float8
  LANGUAGE sql IMMUTABLE STRICT AS 'SELECT EXTRACT(EPOCH FROM (x - y))::float8';
--> statement-breakpoint
CREATE TYPE marpe_timerange AS RANGE (subtype = time, subtype_diff = marpe_time_subtype_diff);
--> statement-breakpoint
ALTER TABLE "caregiver_working_hours" ADD CONSTRAINT "caregiver_working_hours_no_overlap"
  EXCLUDE USING gist ("caregiver_id" WITH =, "week_day" WITH =, marpe_timerange("start_time", "end_time") WITH &&);
--> statement-breakpoint
ALTER TABLE "caregiver_schedule_exception_hours" ADD CONSTRAINT "caregiver_schedule_exception_hours_no_overlap"
  EXCLUDE USING gist ("exception_id" WITH =, marpe_timerange("start_time", "end_time") WITH &&);
--> statement-breakpoint

-- 2. Change notifications. Every write that can change a clinic's GET /api/clinic/:id answer
--    notifies channel marpe_clinic_changed with the clinic id; every API instance LISTENs and drops
--    its cached answer (src/modules/clinics/clinic-data-cache.ts). Notifications go out at commit,
--    and PostgreSQL folds identical ones of a transaction into one, so a bulk write sends one per
--    clinic. TRUNCATE (no row triggers) notifies '*': every clinic.

-- Rows that carry the clinic id in a column; TG_ARGV[0] names it.
CREATE FUNCTION marpe_notify_clinic_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  old_id text;
  new_id text;
BEGIN
  IF TG_OP <> 'INSERT' THEN old_id := to_jsonb(OLD) ->> TG_ARGV[0]; END IF;
  IF TG_OP <> 'DELETE' THEN new_id := to_jsonb(NEW) ->> TG_ARGV[0]; END IF;
  IF old_id IS NOT NULL THEN PERFORM pg_notify('marpe_clinic_changed', old_id); END IF;
  IF new_id IS NOT NULL AND new_id IS DISTINCT FROM old_id THEN
    PERFORM pg_notify('marpe_clinic_changed', new_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint

-- Rows that belong to a caregiver; TG_ARGV[0] names the caregiver id column. When the caregiver
-- itself is being deleted (cascade) it is gone already, and its own trigger has notified.
CREATE FUNCTION marpe_notify_caregiver_clinic_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  old_id integer;
  new_id integer;
BEGIN
  IF TG_OP <> 'INSERT' THEN old_id := (to_jsonb(OLD) ->> TG_ARGV[0])::integer; END IF;
  IF TG_OP <> 'DELETE' THEN new_id := (to_jsonb(NEW) ->> TG_ARGV[0])::integer; END IF;
  PERFORM pg_notify('marpe_clinic_changed', c.clinic_id::text)
    FROM caregivers c WHERE c.id IN (old_id, new_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE FUNCTION marpe_notify_exception_hours_clinic_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  old_id integer;
  new_id integer;
BEGIN
  IF TG_OP <> 'INSERT' THEN old_id := OLD.exception_id; END IF;
  IF TG_OP <> 'DELETE' THEN new_id := NEW.exception_id; END IF;
  PERFORM pg_notify('marpe_clinic_changed', c.clinic_id::text)
    FROM caregiver_schedule_exceptions e JOIN caregivers c ON c.id = e.caregiver_id
    WHERE e.id IN (old_id, new_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE FUNCTION marpe_notify_all_clinics_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('marpe_clinic_changed', '*');
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE TRIGGER clinics_notify_changed AFTER INSERT OR UPDATE OR DELETE ON "clinics"
  FOR EACH ROW EXECUTE FUNCTION marpe_notify_clinic_changed('id');
--> statement-breakpoint
CREATE TRIGGER caregivers_notify_changed AFTER INSERT OR UPDATE OR DELETE ON "caregivers"
  FOR EACH ROW EXECUTE FUNCTION marpe_notify_clinic_changed('clinic_id');
--> statement-breakpoint
CREATE TRIGGER appointment_types_notify_changed AFTER INSERT OR UPDATE OR DELETE ON "appointment_types"
  FOR EACH ROW EXECUTE FUNCTION marpe_notify_clinic_changed('clinic_id');
--> statement-breakpoint
CREATE TRIGGER appointments_notify_changed AFTER INSERT OR UPDATE OR DELETE ON "appointments"
  FOR EACH ROW EXECUTE FUNCTION marpe_notify_clinic_changed('clinic_id');
--> statement-breakpoint
CREATE TRIGGER caregiver_appointment_types_notify_changed AFTER INSERT OR UPDATE OR DELETE ON "caregiver_appointment_types"
  FOR EACH ROW EXECUTE FUNCTION marpe_notify_caregiver_clinic_changed('caregiver_id');
--> statement-breakpoint
CREATE TRIGGER caregiver_working_hours_notify_changed AFTER INSERT OR UPDATE OR DELETE ON "caregiver_working_hours"
  FOR EACH ROW EXECUTE FUNCTION marpe_notify_caregiver_clinic_changed('caregiver_id');
--> statement-breakpoint
CREATE TRIGGER caregiver_breaks_notify_changed AFTER INSERT OR UPDATE OR DELETE ON "caregiver_breaks"
  FOR EACH ROW EXECUTE FUNCTION marpe_notify_caregiver_clinic_changed('caregiver_id');
--> statement-breakpoint
CREATE TRIGGER caregiver_schedule_exceptions_notify_changed AFTER INSERT OR UPDATE OR DELETE ON "caregiver_schedule_exceptions"
  FOR EACH ROW EXECUTE FUNCTION marpe_notify_caregiver_clinic_changed('caregiver_id');
--> statement-breakpoint
CREATE TRIGGER caregiver_schedule_exception_hours_notify_changed AFTER INSERT OR UPDATE OR DELETE ON "caregiver_schedule_exception_hours"
  FOR EACH ROW EXECUTE FUNCTION marpe_notify_exception_hours_clinic_changed();
--> statement-breakpoint
CREATE TRIGGER clinics_notify_truncated AFTER TRUNCATE ON "clinics"
  FOR EACH STATEMENT EXECUTE FUNCTION marpe_notify_all_clinics_changed();
--> statement-breakpoint
CREATE TRIGGER caregivers_notify_truncated AFTER TRUNCATE ON "caregivers"
  FOR EACH STATEMENT EXECUTE FUNCTION marpe_notify_all_clinics_changed();
--> statement-breakpoint
CREATE TRIGGER appointment_types_notify_truncated AFTER TRUNCATE ON "appointment_types"
  FOR EACH STATEMENT EXECUTE FUNCTION marpe_notify_all_clinics_changed();
--> statement-breakpoint
CREATE TRIGGER appointments_notify_truncated AFTER TRUNCATE ON "appointments"
  FOR EACH STATEMENT EXECUTE FUNCTION marpe_notify_all_clinics_changed();
--> statement-breakpoint
CREATE TRIGGER caregiver_appointment_types_notify_truncated AFTER TRUNCATE ON "caregiver_appointment_types"
  FOR EACH STATEMENT EXECUTE FUNCTION marpe_notify_all_clinics_changed();
--> statement-breakpoint
CREATE TRIGGER caregiver_working_hours_notify_truncated AFTER TRUNCATE ON "caregiver_working_hours"
  FOR EACH STATEMENT EXECUTE FUNCTION marpe_notify_all_clinics_changed();
--> statement-breakpoint
CREATE TRIGGER caregiver_breaks_notify_truncated AFTER TRUNCATE ON "caregiver_breaks"
  FOR EACH STATEMENT EXECUTE FUNCTION marpe_notify_all_clinics_changed();
--> statement-breakpoint
CREATE TRIGGER caregiver_schedule_exceptions_notify_truncated AFTER TRUNCATE ON "caregiver_schedule_exceptions"
  FOR EACH STATEMENT EXECUTE FUNCTION marpe_notify_all_clinics_changed();
--> statement-breakpoint
CREATE TRIGGER caregiver_schedule_exception_hours_notify_truncated AFTER TRUNCATE ON "caregiver_schedule_exception_hours"
  FOR EACH STATEMENT EXECUTE FUNCTION marpe_notify_all_clinics_changed();
