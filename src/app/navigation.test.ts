import { describe, expect, it } from 'vitest';

import { hasAuthority, navigation, visibleNavItems } from '@/app/navigation';
import type { SessionState, SessionUser } from '@/infra/session';

function user(authority: string[]): SessionUser {
  return {
    id: 'u1',
    userId: 'u1',
    avatar: '',
    userName: 'Amel',
    email: 'a@kiraa.dz',
    authority,
    metadata: {},
  };
}

const paths = (session: SessionState) => visibleNavItems(navigation, session).map((i) => i.path);

describe('main navigation', () => {
  it('has the spec entries in order', () => {
    expect(navigation.map((i) => i.path)).toEqual([
      '/home',
      '/cars',
      '/mybookings',
      '/staff',
      '/guest-booking',
      '/qa',
      '/contacts',
      '#',
    ]);
  });

  it('shows "Find my booking" to guests and "Booking" to signed-in users', () => {
    expect(paths({ status: 'signedOut', user: null })).toEqual([
      '/home',
      '/cars',
      '/guest-booking',
      '/qa',
      '/contacts',
      '#',
    ]);
    expect(paths({ status: 'signedIn', user: user(['user']) })).toEqual([
      '/home',
      '/cars',
      '/mybookings',
      '/qa',
      '/contacts',
      '#',
    ]);
  });

  it('hides entries whose authority does not match', () => {
    const items = [
      ...navigation,
      { ...navigation[0]!, key: 'reports', path: '/reports', authority: ['admin'] },
    ];
    const visible = (session: SessionState) => visibleNavItems(items, session).map((i) => i.key);
    expect(visible({ status: 'signedOut', user: null })).not.toContain('reports');
    expect(visible({ status: 'signedIn', user: user(['user']) })).not.toContain('reports');
    expect(visible({ status: 'signedIn', user: user(['admin']) })).toContain('reports');
  });

  it("shows the agency's board to admins only", () => {
    const visible = (session: SessionState) =>
      visibleNavItems(navigation, session).map((i) => i.key);
    expect(visible({ status: 'signedOut', user: null })).not.toContain('staff');
    expect(visible({ status: 'signedIn', user: user(['user']) })).not.toContain('staff');
    expect(visible({ status: 'signedIn', user: user(['admin']) })).toContain('staff');
  });

  it('matches authorities: empty means everyone, otherwise any shared role', () => {
    expect(hasAuthority([], [])).toBe(true);
    expect(hasAuthority(['admin', 'user'], ['user'])).toBe(true);
    expect(hasAuthority(['admin'], ['user'])).toBe(false);
  });
});
