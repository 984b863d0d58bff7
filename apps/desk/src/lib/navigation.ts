import type { StaffRole } from '@marpe/shared';

/** The navigation's groups, in order: the day's work, running the clinic, oneself. */
export type NavGroup = 'day' | 'clinic' | 'me';

/** One entry of the desk's side navigation: its path, its label's key, who sees it. */
export interface NavItem {
  path: string;
  /** In the `common` namespace, under `nav.`. */
  label: string;
  roles: readonly StaffRole[];
  group: NavGroup;
}

const everyone = ['owner', 'front_desk'] as const;

export const navItems: readonly NavItem[] = [
  { path: '/diary', label: 'diary', roles: everyone, group: 'day' },
  { path: '/patients', label: 'patients', roles: everyone, group: 'day' },
  { path: '/forms', label: 'forms', roles: everyone, group: 'day' },
  { path: '/payments', label: 'payments', roles: everyone, group: 'day' },
  { path: '/waitlist', label: 'waitlist', roles: everyone, group: 'day' },
  { path: '/setup', label: 'setup', roles: ['owner'], group: 'clinic' },
  { path: '/staff', label: 'staff', roles: ['owner'], group: 'clinic' },
  { path: '/integrations', label: 'integrations', roles: ['owner'], group: 'clinic' },
  { path: '/problems', label: 'problems', roles: ['owner'], group: 'clinic' },
  { path: '/audit', label: 'audit', roles: ['owner'], group: 'clinic' },
  { path: '/account', label: 'account', roles: everyone, group: 'me' },
];

export const navFor = (role: StaffRole) => navItems.filter((item) => item.roles.includes(role));

/** A role's navigation in its groups, empty groups left out. */
export const navGroupsFor = (role: StaffRole) =>
  (['day', 'clinic', 'me'] as const)
    .map((group) => ({ group, items: navFor(role).filter((item) => item.group === group) }))
    .filter(({ items }) => items.length > 0);
