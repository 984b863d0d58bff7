-- A caregiver may connect a Microsoft 365 / Outlook calendar by consent as well as a Google one
-- (docs/calendar-sync.md, ADR 043): the provider checks widen; no row changes.
ALTER TABLE "calendar_connections" DROP CONSTRAINT "calendar_connections_provider_check";--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD CONSTRAINT "calendar_connections_provider_check" CHECK ("calendar_connections"."provider" IN ('google', 'microsoft'));--> statement-breakpoint
ALTER TABLE "calendar_connection_links" DROP CONSTRAINT "calendar_connection_links_provider_check";--> statement-breakpoint
ALTER TABLE "calendar_connection_links" ADD CONSTRAINT "calendar_connection_links_provider_check" CHECK ("calendar_connection_links"."provider" IN ('google', 'microsoft'));
