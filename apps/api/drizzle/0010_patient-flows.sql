CREATE TABLE "form_drafts" (
	"request_id" integer PRIMARY KEY NOT NULL,
	"draft" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "language" text DEFAULT 'he' NOT NULL;--> statement-breakpoint
ALTER TABLE "form_drafts" ADD CONSTRAINT "form_drafts_request_id_form_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."form_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_language_check" CHECK ("appointments"."language" IN ('he', 'en'));