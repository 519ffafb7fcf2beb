import { invitationRefusal, removalRefusal, roleChangeRefusal } from './team-rules.js';

const owner = { id: 'o', role: 'owner' };
const owner2 = { id: 'o2', role: 'owner' };
const admin = { id: 'a', role: 'admin' };
const dev = { id: 'd', role: 'developer' };

describe('team rules', () => {
  it('lets only an owner invite an owner', () => {
    expect(invitationRefusal(admin, 'owner')).toBe('only_owner_owner');
    expect(invitationRefusal(admin, 'admin')).toBeNull();
    expect(invitationRefusal(owner, 'owner')).toBeNull();
  });

  it('keeps an owner, and the owner role in owners’ hands', () => {
    expect(roleChangeRefusal(owner, owner2, 'admin', 1)).toBe('last_owner');
    expect(roleChangeRefusal(owner, owner2, 'admin', 2)).toBeNull();
    expect(roleChangeRefusal(admin, dev, 'owner', 1)).toBe('only_owner_owner');
    expect(roleChangeRefusal(admin, owner, 'viewer', 2)).toBe('only_owner_owner');
    expect(roleChangeRefusal(owner, owner, 'admin', 2)).toBe('yourself');
    expect(removalRefusal(owner, owner2, 1)).toBe('last_owner');
    expect(removalRefusal(admin, owner, 2)).toBe('only_owner_owner');
    expect(removalRefusal(admin, admin, 2)).toBe('yourself');
    expect(removalRefusal(admin, dev, 1)).toBeNull();
  });
});
