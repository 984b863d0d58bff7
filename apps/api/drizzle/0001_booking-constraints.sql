-- Custom migration: what drizzle-kit cannot express. Double booking is impossible by construction.
-- btree_gist lets the GiST exclusion constraint compare caregiver_id with =.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_overlap"
  EXCLUDE USING gist ("caregiver_id" WITH =, tstzrange("start_at", "end_at") WITH &&)
  WHERE ("status" = 'booked');
--> statement-breakpoint
-- One booked appointment per patient per date (in the clinic's time zone).
CREATE UNIQUE INDEX "appointments_one_per_patient_date" ON "appointments" ("clinic_id", "patient_id", "local_date")
  WHERE "status" = 'booked';
