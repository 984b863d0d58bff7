-- A claimed charge keeps the reference the provider reported with it, held by a foreign key to the
-- paying request's own: the database refuses to bind a charge to a request it was not made for.
ALTER TABLE "payment_charges" ADD COLUMN "charge_ref" text;--> statement-breakpoint
-- Charges claimed before references were required keep the request they paid: the binding they
-- were confirmed under is that request's, so its reference is theirs (nothing is re-decided).
UPDATE "payment_charges" c SET "charge_ref" = r."charge_ref" FROM "payment_requests" r WHERE r."id" = c."request_id";--> statement-breakpoint
ALTER TABLE "payment_charges" ALTER COLUMN "charge_ref" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_id_charge_ref_unique" UNIQUE("id","charge_ref");--> statement-breakpoint
ALTER TABLE "payment_charges" ADD CONSTRAINT "payment_charges_request_ref_fk" FOREIGN KEY ("request_id","charge_ref") REFERENCES "public"."payment_requests"("id","charge_ref") ON DELETE cascade ON UPDATE no action;
