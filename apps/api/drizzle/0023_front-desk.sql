ALTER TABLE "form_requests" ADD COLUMN "patient_id_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "form_requests" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "clinic_id" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_requests_patient_idx" ON "form_requests" USING btree ("clinic_id","patient_id_number","id");--> statement-breakpoint
CREATE INDEX "outbox_clinic_failed_idx" ON "outbox" USING btree ("clinic_id","id") WHERE status IN ('failed', 'expired');--> statement-breakpoint
CREATE INDEX "patients_search_first_name_idx" ON "patients" USING btree ("clinic_id",lower("first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "patients_search_last_name_idx" ON "patients" USING btree ("clinic_id",lower("last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "patients_search_id_number_idx" ON "patients" USING btree ("clinic_id","id_number" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "patients_search_phone_idx" ON "patients" USING btree ("clinic_id","phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "payment_requests_patient_idx" ON "payment_requests" USING btree ("clinic_id","patient_id_number","id");