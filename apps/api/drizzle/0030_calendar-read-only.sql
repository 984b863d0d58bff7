-- A calendar shared for reading only: Marpe mirrors it but cannot write its bookings into it.
ALTER TABLE "calendar_syncs" DROP CONSTRAINT "calendar_syncs_state_check";--> statement-breakpoint
ALTER TABLE "calendar_syncs" ADD CONSTRAINT "calendar_syncs_state_check" CHECK ("calendar_syncs"."state" IN ('pending', 'syncing', 'read_only', 'no_access', 'not_found', 'error'));
