/** `/team`: the members (newest first) with their role, two-factor and last sign-in; open invitations; invite. */
import type { Invitation, MerchantUserAccount } from '@mm/db/merchant-users';
import { MERCHANT_ROLES } from '@mm/domain';
import { csrfField, html, when, type SafeHtml } from '@mm/web';
import type { Locale } from '../i18n/locale.js';
import { roleLabel } from '../i18n/messages.js';
import { teamMessages } from '../i18n/team.js';

export interface TeamData {
  locale: Locale;
  csrfToken: string;
  me: MerchantUserAccount;
  members: MerchantUserAccount[];
  lastSignIns: Map<string, Date>;
  invitations: Invitation[];
  canManage: boolean;
  /** The lists' role filter as the URL gave it, whether each shows a later page, and each next page's query. */
  filter: {
    role: string;
    membersPaged: boolean;
    invitationsPaged: boolean;
    olderMembers: string | null;
    olderInvitations: string | null;
  };
  notice?: string;
  error?: string;
  typed?: { email?: string; role?: string };
}

const alerts = (v: { notice?: string | undefined; error?: string | undefined }) =>
  html`${v.error ? html`<p class="error" id="team-error" role="alert">${v.error}</p>` : ''}${
    v.notice ? html`<p class="notice" id="team-notice" role="status">${v.notice}</p>` : ''
  }`;

/** The roles this user may hand out: an owner all five, an admin all but owner. */
const grantable = (me: MerchantUserAccount) => MERCHANT_ROLES.filter((r) => r !== 'owner' || me.role === 'owner');

const roleOptions = (v: TeamData, selected: string) =>
  grantable(v.me).map(
    (r) => html`<option value="${r}"${r === selected ? html` selected` : ''}>${roleLabel(v.locale, r)}</option>`,
  );

function memberActions(v: TeamData, m: MerchantUserAccount): SafeHtml {
  const tm = teamMessages(v.locale);
  if (!v.canManage || m.id === v.me.id || (m.role === 'owner' && v.me.role !== 'owner')) return html``;
  const token = csrfField(v.csrfToken);
  return html`<form method="post" action="/team/members/${m.id}/role" class="inline">${token}
<select id="role-${m.id}" name="role" aria-label="${tm.role}">${roleOptions(v, m.role)}</select> <button type="submit" class="secondary">${tm.change}</button></form>
<form method="post" action="/team/members/${m.id}/remove" class="inline">${token}<button type="submit" class="danger">${tm.remove}</button></form>`;
}

function memberFilterForm(v: TeamData): SafeHtml {
  const tm = teamMessages(v.locale);
  return html`<form method="get" action="/team" class="filters" id="team-filters"><div>
<label for="f-role">${tm.role}</label><select id="f-role" name="role"><option value="">${tm.anyRole}</option>${MERCHANT_ROLES.map(
    (r) => html`<option value="${r}"${r === v.filter.role ? html` selected` : ''}>${roleLabel(v.locale, r)}</option>`,
  )}</select></div><div><button type="submit">${tm.filter}</button></div></form>`;
}

/** "← Newest" and "Older →" of one list, the filter kept in both. */
function pager(v: TeamData, list: 'members' | 'invitations'): SafeHtml {
  const tm = teamMessages(v.locale);
  const newest = v.filter.role ? `/team?role=${encodeURIComponent(v.filter.role)}` : '/team';
  const paged = list === 'members' ? v.filter.membersPaged : v.filter.invitationsPaged;
  const older = list === 'members' ? v.filter.olderMembers : v.filter.olderInvitations;
  const links = [
    paged ? html`<a id="newest-${list}" href="${newest}">${tm.newestMembers}</a>` : null,
    older
      ? html`<a id="older-${list}" href="/team?${older}" rel="next">${list === 'members' ? tm.olderMembers : tm.olderInvitations}</a>`
      : null,
  ].filter((l) => l !== null);
  return links.length ? html`<p class="pager">${links.map((l, i) => html`${i ? ' · ' : ''}${l}`)}</p>` : html``;
}

function membersTable(v: TeamData): SafeHtml {
  const tm = teamMessages(v.locale);
  if (v.members.length === 0) return html`<p class="muted" id="no-members">${tm.noMembers}</p>`;
  return html`<div class="scroll"><table id="members-table" class="cards"><thead><tr><th>${tm.name}</th><th>${tm.email}</th><th>${tm.role}</th><th>${tm.twoFactor}</th><th>${tm.lastSignIn}</th>${
    v.canManage ? html`<th>${tm.actions}</th>` : ''
  }</tr></thead><tbody>${v.members.map((m) => {
    const last = v.lastSignIns.get(m.id);
    return html`<tr data-member-id="${m.id}"><td data-label="${tm.name}">${m.name}${m.id === v.me.id ? html` <span class="muted">(${tm.you})</span>` : ''}</td><td data-label="${tm.email}">${m.email}</td>
<td data-role="${m.role}" data-label="${tm.role}">${roleLabel(v.locale, m.role)}</td>
<td data-label="${tm.twoFactor}">${m.totpEnabledAt ? html`<span class="badge ok">${tm.on}</span>` : html`<span class="badge off">${tm.off}</span>`}</td>
<td data-label="${tm.lastSignIn}">${last ? when(last) : tm.never}</td>${v.canManage ? html`<td>${memberActions(v, m)}</td>` : ''}</tr>`;
  })}</tbody></table></div>`;
}

function invitationsSection(v: TeamData): SafeHtml {
  const tm = teamMessages(v.locale);
  if (v.invitations.length === 0) return html`<p class="muted" id="no-invitations">${tm.noInvitations}</p>`;
  return html`<div class="scroll"><table id="invitations-table"><thead><tr><th>${tm.email}</th><th>${tm.role}</th><th>${tm.invitedOn}</th><th>${tm.expires}</th>${
    v.canManage ? html`<th>${tm.actions}</th>` : ''
  }</tr></thead><tbody>${v.invitations.map(
    (i) =>
      html`<tr data-invitation-id="${i.id}"><td>${i.email}</td><td>${roleLabel(v.locale, i.role)}</td><td>${when(i.createdAt)}</td><td>${when(i.expiresAt)}</td>${
        v.canManage
          ? html`<td><form method="post" action="/team/invitations/${i.id}/revoke" class="inline">${csrfField(v.csrfToken)}<button type="submit" class="secondary">${tm.revoke}</button></form></td>`
          : ''
      }</tr>`,
  )}</tbody></table></div>`;
}

function inviteForm(v: TeamData): SafeHtml {
  const tm = teamMessages(v.locale);
  return html`<h2>${tm.inviteTitle}</h2><p class="muted">${tm.inviteHelp}</p>
<form method="post" action="/team/invitations" id="invite-form">${csrfField(v.csrfToken)}
<label for="invite-email">${tm.email}</label><input id="invite-email" name="email" type="email" required maxlength="254" value="${v.typed?.email ?? ''}">
<label for="invite-role">${tm.role}</label><select id="invite-role" name="role">${roleOptions(v, v.typed?.role ?? 'viewer')}</select>
<label for="invite-locale">${tm.mailLanguage}</label><select id="invite-locale" name="locale">
<option value="fr"${v.locale === 'fr' ? html` selected` : ''}>Français</option><option value="en"${v.locale === 'en' ? html` selected` : ''}>English</option></select>
<p><button type="submit">${tm.invite}</button></p></form>`;
}

export function teamView(v: TeamData): SafeHtml {
  const tm = teamMessages(v.locale);
  return html`<h1>${tm.title}</h1>${alerts(v)}
<h2>${tm.members}</h2>${memberFilterForm(v)}${membersTable(v)}${pager(v, 'members')}
<h2>${tm.invitations}</h2>${invitationsSection(v)}${pager(v, 'invitations')}
${v.canManage ? inviteForm(v) : ''}`;
}
