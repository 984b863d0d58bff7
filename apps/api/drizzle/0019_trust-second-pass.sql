ALTER TABLE "limit_events" DROP CONSTRAINT "limit_events_kind_check";--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "message_cap_per_recipient_hour" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "message_cap_per_recipient_day" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "message_cap_per_clinic_day" integer DEFAULT 500 NOT NULL;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "waitlist_offers_per_entry_per_day" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "patients_clinic_phone_idx" ON "patients" USING btree ("clinic_id","phone");--> statement-breakpoint
ALTER TABLE "clinics" ADD CONSTRAINT "clinics_message_caps_check" CHECK ("clinics"."message_cap_per_recipient_hour" BETWEEN 1 AND 100 AND "clinics"."message_cap_per_recipient_day" BETWEEN 1 AND 1000 AND "clinics"."message_cap_per_clinic_day" BETWEEN 1 AND 100000);--> statement-breakpoint
ALTER TABLE "clinics" ADD CONSTRAINT "clinics_waitlist_offers_per_day_check" CHECK ("clinics"."waitlist_offers_per_entry_per_day" BETWEEN 1 AND 10);--> statement-breakpoint
ALTER TABLE "limit_events" ADD CONSTRAINT "limit_events_kind_check" CHECK ("limit_events"."kind" IN ('phone_hint', 'book', 'cancel', 'details_message', 'waitlist_join', 'api_message', 'api_message_clinic'));