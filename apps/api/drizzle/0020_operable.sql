ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secret" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secret_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "outbox_processed_idx" ON "outbox" USING btree ("processed_at") WHERE status <> 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_settled_idx" ON "webhook_deliveries" USING btree ("created_at") WHERE status <> 'pending';