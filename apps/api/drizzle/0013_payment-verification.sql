ALTER TABLE "payment_requests" DROP CONSTRAINT "payment_requests_status_check";--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "tranzila_app_key" text;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "tranzila_secret" text;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "verification" text;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "provider_answer" jsonb;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_status_check" CHECK ("payment_requests"."status" IN ('pending', 'verifying', 'paid', 'cancelled'));--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD CONSTRAINT "payment_transactions_verification_check" CHECK ("payment_transactions"."verification" IN ('confirmed', 'refused', 'unverifiable'));