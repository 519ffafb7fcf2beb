import type { Finding } from './osv.js';

/** An advisory we decided to live with for now, with why; it stops counting after `review_by`. */
export interface AcceptedRisk {
  id: string;
  package: string;
  reason: string;
  /** YYYY-MM-DD: past it the finding fails the audit again, so an acceptance is looked at again. */
  review_by: string;
}

const FAILING = new Set(['HIGH', 'CRITICAL']);

export interface Verdict {
  failing: Finding[];
  warnings: Finding[];
  accepted: { finding: Finding; risk: AcceptedRisk }[];
}

/** High and critical findings fail unless accepted (and not past review); the rest are reported. */
export function judge(findings: Finding[], accepted: AcceptedRisk[], today: string): Verdict {
  const verdict: Verdict = { failing: [], warnings: [], accepted: [] };
  for (const finding of findings) {
    const ids = [finding.id, ...finding.aliases];
    const risk = accepted.find((r) => r.package === finding.package.name && ids.includes(r.id) && r.review_by >= today);
    if (risk) verdict.accepted.push({ finding, risk });
    else if (FAILING.has(finding.severity)) verdict.failing.push(finding);
    else verdict.warnings.push(finding);
  }
  return verdict;
}

export function formatFinding(f: Finding): string {
  return `${f.severity.padEnd(8)} ${f.package.name}@${f.package.version}  ${f.id}${f.aliases.length ? ` (${f.aliases.join(', ')})` : ''}  ${f.summary}`;
}
