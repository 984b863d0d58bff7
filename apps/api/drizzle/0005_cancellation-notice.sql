ALTER TABLE "appointments" ADD COLUMN "details_sms_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "cancel_notice_minutes" integer DEFAULT 1440 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_details_sms_count_check" CHECK ("appointments"."details_sms_count" >= 0);--> statement-breakpoint
ALTER TABLE "clinics" ADD CONSTRAINT "clinics_cancel_notice_check" CHECK ("clinics"."cancel_notice_minutes" BETWEEN 0 AND 43200);