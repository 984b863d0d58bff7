CREATE TABLE "payment_charges" (
	"terminal" text NOT NULL,
	"provider_index" text NOT NULL,
	"request_id" integer NOT NULL,
	"transaction_id" integer NOT NULL,
	"confirmed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_charges_pkey" PRIMARY KEY("terminal","provider_index"),
	CONSTRAINT "payment_charges_terminal_check" CHECK ("payment_charges"."terminal" = lower("payment_charges"."terminal"))
);
--> statement-breakpoint
ALTER TABLE "payment_requests" ADD COLUMN "charge_ref" text;--> statement-breakpoint
-- Hand-written: requests made before this migration get a reference of their own (their frames
-- were opened without one, so their charges carry none and are bound by payment_charges alone).
UPDATE "payment_requests" SET "charge_ref" = 'm' || md5(random()::text || "id"::text || "token_hash") WHERE "charge_ref" IS NULL;--> statement-breakpoint
ALTER TABLE "payment_requests" ALTER COLUMN "charge_ref" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD CONSTRAINT "payment_charges_request_id_payment_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."payment_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD CONSTRAINT "payment_charges_transaction_id_payment_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."payment_transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_charge_ref_unique" UNIQUE("charge_ref");--> statement-breakpoint
-- Hand-written: charges already confirmed keep the first request they paid, so none of them can
-- be replayed onto another request after the upgrade.
INSERT INTO "payment_charges" ("terminal", "provider_index", "request_id", "transaction_id", "confirmed_at")
SELECT DISTINCT ON (lower(r."terminal"), t."provider_index") lower(r."terminal"), t."provider_index", t."request_id", t."id", t."received_at"
FROM "payment_transactions" t JOIN "payment_requests" r ON r."id" = t."request_id"
WHERE t."verification" = 'confirmed'
ORDER BY lower(r."terminal"), t."provider_index", t."id";