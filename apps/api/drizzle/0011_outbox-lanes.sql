DROP INDEX "outbox_pending_idx";--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "lane" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "circuit_open_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "outbox" USING btree ("lane","next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_lane_check" CHECK ("outbox"."lane" IN ('codes', 'default', 'webhooks'));--> statement-breakpoint
-- Webhook deliveries queued before the lanes move to theirs, so they stop sharing the SMS worker.
UPDATE "outbox" SET "lane" = 'webhooks' WHERE "topic" = 'webhook' AND "status" = 'pending';
