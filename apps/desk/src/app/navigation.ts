import type { StaffRole } from '@marpe/shared';

/** One entry of the desk's side navigation: its path, its label's key, who sees it. */
export interface NavItem {
  path: string;
  /** In the `common` namespace, under `nav.`. */
  label: string;
  roles: readonly StaffRole[];
}

const everyone = ['owner', 'front_desk'] as const;

export const navItems: readonly NavItem[] = [
  { path: '/diary', label: 'diary', roles: everyone },
  { path: '/patients', label: 'patients', roles: everyone },
  { path: '/forms', label: 'forms', roles: everyone },
  { path: '/payments', label: 'payments', roles: everyone },
  { path: '/waitlist', label: 'waitlist', roles: everyone },
  { path: '/setup', label: 'setup', roles: ['owner'] },
  { path: '/staff', label: 'staff', roles: ['owner'] },
  { path: '/integrations', label: 'integrations', roles: ['owner'] },
  { path: '/problems', label: 'problems', roles: ['owner'] },
  { path: '/audit', label: 'audit', roles: ['owner'] },
  { path: '/account', label: 'account', roles: everyone },
];

export const navFor = (role: StaffRole) => navItems.filter((item) => item.roles.includes(role));
