// Options (modifiers) of a product (docs/catalog.md#options): groups such as "Milk" (choose at
// most one) or "Extras" (any), each option with a price added to the product's, in the product's
// currency and taxed at its rate. Pure: validation of the groups a product is saved with, their
// stored and shown forms, and the check of a sale line's choice. No database, no clock.
import { z } from 'zod';
import { AmountError, formatFiatMinor, formatKoinu, parseFiatMinor, parseKoinuInput } from '../money';
import { isPrintable, UNPRINTABLE_MESSAGE } from '../text';

export const MAX_OPTION_GROUPS = 20;
export const MAX_OPTIONS_PER_GROUP = 50;

/** As stored on the product row (option_groups): prices in the product currency's minor units, as decimal strings. */
export interface StoredOptionGroup {
  name: string;
  min: number;
  max: number;
  options: { name: string; price: string }[];
}
/** As the product routes take and return it: prices in the currency's text form ("0.50"). */
export interface OptionGroupView {
  name: string;
  min: number;
  max: number;
  options: { name: string; price: string }[];
}

const name = z
  .string()
  .refine((s) => isPrintable(s), UNPRINTABLE_MESSAGE)
  .pipe(z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters'));

export const OptionGroupsInput = z
  .array(
    z
      .object({
        name,
        min: z.number().int('must be a whole number').min(0, 'must be at least 0').max(MAX_OPTIONS_PER_GROUP),
        max: z.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_OPTIONS_PER_GROUP),
        options: z
          .array(z.object({ name, price: z.string().max(30, 'must be at most 30 characters') }).strict())
          .min(1, 'a group needs at least one option')
          .max(MAX_OPTIONS_PER_GROUP, `at most ${MAX_OPTIONS_PER_GROUP} options`),
      })
      .strict(),
  )
  .max(MAX_OPTION_GROUPS, `at most ${MAX_OPTION_GROUPS} option groups`);

/** A refusal naming the field of option_groups it concerns ("option_groups[0].options[1].price"). */
export class OptionGroupError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'OptionGroupError';
  }
}

/** An option's price in `currency` ("0.50", or DOGE "1.5") to minor units; ≥ 0. */
function optionPrice(field: string, text: string, currency: string): bigint {
  let v: bigint;
  try {
    v = currency === 'DOGE' ? parseKoinuInput(text) : parseFiatMinor(text.trim().replace(/^(\d+),(\d+)$/, '$1.$2'), currency);
  } catch (e) {
    throw new OptionGroupError(field, e instanceof AmountError ? e.message : 'is not a valid amount');
  }
  if (v < 0n) throw new OptionGroupError(field, 'must not be negative');
  return v;
}

/**
 * Checks parsed groups (OptionGroupsInput) by the rules zod cannot state: max ≥ min, a min the
 * group can meet, option names unique in their group, group names unique, prices ≥ 0 in
 * `currency`. Returns them in their stored form.
 */
export function storedOptionGroups(groups: z.infer<typeof OptionGroupsInput>, currency: string): StoredOptionGroup[] {
  const groupNames = new Set<string>();
  return groups.map((g, i) => {
    const f = `option_groups[${i}]`;
    if (groupNames.has(g.name.toLowerCase())) throw new OptionGroupError(`${f}.name`, 'another group has this name');
    groupNames.add(g.name.toLowerCase());
    if (g.max < g.min) throw new OptionGroupError(`${f}.max`, 'must be at least min');
    if (g.min > g.options.length) throw new OptionGroupError(`${f}.min`, `must be at most the number of options (${g.options.length})`);
    const names = new Set<string>();
    const options = g.options.map((o, j) => {
      if (names.has(o.name.toLowerCase()))
        throw new OptionGroupError(`${f}.options[${j}].name`, 'another option of this group has this name');
      names.add(o.name.toLowerCase());
      return { name: o.name, price: optionPrice(`${f}.options[${j}].price`, o.price, currency).toString() };
    });
    return { name: g.name, min: g.min, max: g.max, options };
  });
}

/** The stored groups as read back from the database (a JSON value; anything malformed reads as none). */
export function readOptionGroups(json: unknown): StoredOptionGroup[] {
  if (!Array.isArray(json)) return [];
  return json.filter((g): g is StoredOptionGroup => !!g && typeof g === 'object' && Array.isArray((g as StoredOptionGroup).options));
}

export function optionGroupsView(json: unknown, currency: string): OptionGroupView[] {
  const text = (minor: string) => (currency === 'DOGE' ? formatKoinu(BigInt(minor)) : formatFiatMinor(BigInt(minor), currency));
  return readOptionGroups(json).map((g) => ({
    name: g.name,
    min: g.min,
    max: g.max,
    options: g.options.map((o) => ({ name: o.name, price: text(o.price) })),
  }));
}

/** An option chosen on a line: its name and price (minor units of the product's currency). */
export interface ChosenOption {
  group: string;
  name: string;
  price: bigint;
}

/**
 * The options `chosen` (by name) of a product with `groups`: each must be offered, none twice,
 * and every group's min and max must hold. Throws a plain Error whose message says why (the
 * caller names the field). Returned in the catalog's order.
 */
export function checkChoice(groups: readonly StoredOptionGroup[], chosen: readonly string[]): ChosenOption[] {
  const wanted = new Set<string>();
  for (const c of chosen) {
    if (wanted.has(c)) throw new Error(`"${c}" is chosen twice`);
    wanted.add(c);
  }
  const out: ChosenOption[] = [];
  for (const g of groups) {
    const picked = g.options.filter((o) => wanted.has(o.name));
    if (picked.length < g.min) throw new Error(`the group "${g.name}" needs at least ${g.min} option${g.min === 1 ? '' : 's'}`);
    if (picked.length > g.max) throw new Error(`the group "${g.name}" allows at most ${g.max} option${g.max === 1 ? '' : 's'}`);
    for (const o of picked) {
      wanted.delete(o.name);
      out.push({ group: g.name, name: o.name, price: BigInt(o.price) });
    }
  }
  const unknown = [...wanted];
  if (unknown.length) throw new Error(`the product offers no option "${unknown[0]}"`);
  return out;
}
