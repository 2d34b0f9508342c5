// Options (docs/catalog.md#options): the rules of a product's option groups and of a line's
// choice, pure (lib/catalog/options.ts).
import { describe, expect, it } from 'vitest';
import { checkChoice, OptionGroupError, OptionGroupsInput, storedOptionGroups } from '@/lib/catalog/options';

const GROUPS = storedOptionGroups(
  OptionGroupsInput.parse([
    {
      name: 'Milk',
      min: 0,
      max: 1,
      options: [
        { name: 'Oat', price: '0.50' },
        { name: 'Soy', price: '0.5' },
      ],
    },
    {
      name: 'Extras',
      min: 0,
      max: 2,
      options: [
        { name: 'Extra shot', price: '0.75' },
        { name: 'Syrup', price: '0.25' },
        { name: 'Cream', price: '0' },
      ],
    },
    {
      name: 'Size',
      min: 1,
      max: 1,
      options: [
        { name: 'Small', price: '0' },
        { name: 'Large', price: '0.60' },
      ],
    },
  ]),
  'USD',
);

describe('option groups', () => {
  it('stores prices in minor units of the currency', () => {
    expect(GROUPS[0].options).toEqual([
      { name: 'Oat', price: '50' },
      { name: 'Soy', price: '50' },
    ]);
  });

  it('refuses max below min, a min the group cannot meet, duplicate names and negative or over-precise prices, naming the field', () => {
    const field = (groups: unknown) => {
      try {
        storedOptionGroups(OptionGroupsInput.parse(groups), 'USD');
      } catch (e) {
        return (e as OptionGroupError).field;
      }
      return null;
    };
    expect(
      field([
        {
          name: 'A',
          min: 2,
          max: 1,
          options: [
            { name: 'x', price: '0' },
            { name: 'y', price: '0' },
          ],
        },
      ]),
    ).toBe('option_groups[0].max');
    expect(field([{ name: 'A', min: 2, max: 2, options: [{ name: 'x', price: '0' }] }])).toBe('option_groups[0].min');
    expect(
      field([
        {
          name: 'A',
          min: 0,
          max: 1,
          options: [
            { name: 'x', price: '0' },
            { name: 'X', price: '0' },
          ],
        },
      ]),
    ).toBe('option_groups[0].options[1].name');
    expect(
      field([
        { name: 'A', min: 0, max: 1, options: [{ name: 'x', price: '0' }] },
        { name: 'a', min: 0, max: 1, options: [{ name: 'x', price: '0' }] },
      ]),
    ).toBe('option_groups[1].name');
    expect(field([{ name: 'A', min: 0, max: 1, options: [{ name: 'x', price: '-0.01' }] }])).toBe('option_groups[0].options[0].price');
    expect(field([{ name: 'A', min: 0, max: 1, options: [{ name: 'x', price: '0.001' }] }])).toBe('option_groups[0].options[0].price');
  });
});

describe("a line's choice", () => {
  it("returns the options in the catalog's order with their prices", () => {
    expect(checkChoice(GROUPS, ['Large', 'Extra shot', 'Oat'])).toEqual([
      { group: 'Milk', name: 'Oat', price: 50n },
      { group: 'Extras', name: 'Extra shot', price: 75n },
      { group: 'Size', name: 'Large', price: 60n },
    ]);
  });

  it('refuses an option not offered, one chosen twice, and a broken min or max', () => {
    expect(() => checkChoice(GROUPS, ['Small', 'Almond'])).toThrow(/offers no option "Almond"/);
    expect(() => checkChoice(GROUPS, ['Small', 'Oat', 'Oat'])).toThrow(/chosen twice/);
    expect(() => checkChoice(GROUPS, ['Small', 'Oat', 'Soy'])).toThrow(/"Milk" allows at most 1/);
    expect(() => checkChoice(GROUPS, ['Small', 'Extra shot', 'Syrup', 'Cream'])).toThrow(/"Extras" allows at most 2/);
    expect(() => checkChoice(GROUPS, ['Oat'])).toThrow(/"Size" needs at least 1/);
  });
});
