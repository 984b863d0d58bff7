import type { StaffList } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const staffQueryKey = ['staff'] as const;

export const listStaff = () => api<StaffList>('/api/integration/staff');

/** The clinic's members and open invitations. */
export const useStaffList = () => useQuery({ queryKey: staffQueryKey, queryFn: listStaff });
