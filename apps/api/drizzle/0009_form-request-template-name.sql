ALTER TABLE "form_requests" ADD COLUMN "template_name" text;--> statement-breakpoint
-- Links made before: their template's current name, where the template still exists.
UPDATE "form_requests" SET "template_name" = "form_templates"."name" FROM "form_templates" WHERE "form_templates"."id" = "form_requests"."template_id";
