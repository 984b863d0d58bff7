-- A calendar shared for reading only: Marpe mirrors it but cannot write its bookings into it.
ALTER TABLE "calendar_syncs" DROP CONSTRAINT "calendar_syncs_state_check";--> statement-breakpoint
ALTER TABLE "calendar_syncs" ADD CONSTRAINT "calendar_syncs_state_check" CHECK ("calendar_syncs"."state" IN ('pending', 'syncing', 'read_only', 'no_access', 'not_found', 'error'));--> statement-breakpoint
-- The last full read of each calendar: one a day clears what incremental reads can leave behind
-- (the instances of a series split with "this and following events" change ids).
ALTER TABLE "calendar_syncs" ADD COLUMN "full_synced_at" timestamp with time zone;
