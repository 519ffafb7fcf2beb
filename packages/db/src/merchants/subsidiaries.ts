import type { Db, Tx } from '../database/index.js';

export interface SubsidiaryInput {
  countryCode: string;
  countryName: string;
  currency: string;
  active: boolean;
}

export async function upsertSubsidiary(db: Db, s: SubsidiaryInput): Promise<void> {
  await db.subsidiary.upsert({
    where: { countryCode: s.countryCode },
    create: s,
    update: { countryName: s.countryName, currency: s.currency, active: s.active, updatedAt: new Date() },
  });
}

/** Takes a transaction client too, so the back-office's audit row commits with the change. */
export async function setSubsidiaryActive(db: Db | Tx, countryCode: string, active: boolean): Promise<boolean> {
  const { count } = await db.subsidiary.updateMany({ where: { countryCode }, data: { active, updatedAt: new Date() } });
  return count === 1;
}

export async function findActiveSubsidiary(db: Db, countryCode: string) {
  return db.subsidiary.findFirst({ where: { countryCode, active: true } });
}

/** The countries open now, by name: the sign-up's choice of country. */
export async function listActiveSubsidiaries(db: Db | Tx) {
  return db.subsidiary.findMany({ where: { active: true }, orderBy: { countryName: 'asc' } });
}

/** The seed of decisions 1. */
export const SEED_SUBSIDIARIES: SubsidiaryInput[] = [
  { countryCode: 'CI', countryName: "Côte d'Ivoire", currency: 'XOF', active: true },
  { countryCode: 'SN', countryName: 'Sénégal', currency: 'XOF', active: true },
  { countryCode: 'CM', countryName: 'Cameroun', currency: 'XAF', active: true },
];
