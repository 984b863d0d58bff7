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
  { path: '/setup', label: 'setup', roles: ['owner'] },
  { path: '/staff', label: 'staff', roles: ['owner'] },
  { path: '/account', label: 'account', roles: everyone },
];

export const navFor = (role: StaffRole) => navItems.filter((item) => item.roles.includes(role));
