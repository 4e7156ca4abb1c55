import fc from 'fast-check';
import { enumValueNameFragment, fieldNameFragment, packageSegments, protoPathFragment, typeNameFragment } from './identifiers.js';
import { WELL_KNOWN_FILES } from './well-known.js';
import type { EnumPlan, ExtendPlan, FieldPlan, FilePlan, LabelChoice, MemberPlan, MessagePlan, PlanLimits, RangePlan, SetPlan, TypeChoice } from './plan-types.js';

export type * from './plan-types.js';

/** Arbitraries of descriptor-set plans (plan-types.ts). */
export const DEFAULT_PLAN_LIMITS: PlanLimits = { maxFiles: 4, maxDepth: 2, maxMessages: 5, maxMembers: 5 };

/*
 * Weighted choices are written as a selector number mapped to a value rather than `fc.oneof`,
 * because fast-check shrinks a number towards 0 but never moves a `oneof` value to another
 * branch: this way a shrunk counterexample also loses rare flags and exotic numbers.
 */

/** Rare flags (deprecated, aliases): mostly off, so typical sets stay readable. */
const rarely: fc.Arbitrary<boolean> = fc.nat({ max: 7 }).map((n) => n === 7);

const numberHint: fc.Arbitrary<number> = fc
  .tuple(fc.nat({ max: 7 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 536_870_911 }), fc.constantFrom(18_999, 19_000, 19_999, 20_000, 2047, 2048, 536_870_911))
  .map(([sel, small, large, edge]) => (sel < 6 ? small : sel === 6 ? large : edge));

const enumNumberHint: fc.Arbitrary<number> = fc
  .tuple(fc.nat({ max: 7 }), fc.integer({ min: 0, max: 10 }), fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }), fc.constantFrom(-1, -2_147_483_648, 2_147_483_647))
  .map(([sel, small, large, edge]) => (sel < 6 ? small : sel === 6 ? large : edge));

/** Mostly scalars, then message references, then enum references. */
function typeChoice(): fc.Arbitrary<TypeChoice> {
  return fc.record({ sel: fc.nat({ max: 6 }), scalar: fc.nat({ max: 14 }), pick: fc.nat({ max: 31 }) }).map(({ sel, scalar, pick }): TypeChoice => {
    if (sel < 4) return { kind: 'scalar', scalar };
    return sel < 6 ? { kind: 'message', pick } : { kind: 'enum', pick };
  });
}

function fieldPlan(): fc.Arbitrary<FieldPlan> {
  return fc.record({
    name: fieldNameFragment,
    label: fc.constantFrom<LabelChoice>('singular', 'optional', 'required', 'repeated'),
    type: typeChoice(),
    numberHint,
    defaultPick: fc.option(fc.nat({ max: 15 }), { freq: 3 }),
    packed: fc.boolean(),
    deprecated: rarely,
  });
}

function memberPlan(): fc.Arbitrary<MemberPlan> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('field' as const), field: fieldPlan() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('oneof' as const),
        oneof: fc.record({ name: fieldNameFragment, fields: fc.array(fieldPlan(), { minLength: 1, maxLength: 3 }) }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('map' as const),
        map: fc.record({ name: fieldNameFragment, key: fc.nat({ max: 11 }), value: typeChoice(), numberHint }),
      }),
    },
  );
}

function enumPlan(): fc.Arbitrary<EnumPlan> {
  return fc.record({
    name: typeNameFragment,
    values: fc.array(fc.record({ name: enumValueNameFragment, numberHint: enumNumberHint, deprecated: rarely }), { minLength: 1, maxLength: 4 }),
    alias: rarely,
    reserved: fc.array(fc.record({ startHint: enumNumberHint, length: fc.integer({ min: 1, max: 3 }) }), { maxLength: 1 }),
    reservedNames: fc.array(enumValueNameFragment, { maxLength: 1 }),
  });
}

function extendPlan(): fc.Arbitrary<ExtendPlan> {
  return fc.record({ target: fc.nat({ max: 31 }), fields: fc.array(fieldPlan(), { minLength: 1, maxLength: 2 }) });
}

const rangePlan: fc.Arbitrary<RangePlan> = fc.record({
  kind: fc.constantFrom<RangePlan['kind']>('extension', 'reserved'),
  startHint: numberHint,
  length: fc.integer({ min: 1, max: 100 }),
  toMax: fc.boolean(),
});

function messagePlan(limits: PlanLimits): fc.Arbitrary<MessagePlan> {
  return fc.record({
    name: typeNameFragment,
    parent: fc.option(fc.nat({ max: 15 }), { freq: 2 }),
    deprecated: rarely,
    members: fc.array(memberPlan(), { maxLength: limits.maxMembers }),
    enums: fc.array(enumPlan(), { maxLength: 1 }),
    extends: fc.array(extendPlan(), { maxLength: 1 }),
    ranges: fc.array(rangePlan, { maxLength: 2 }),
    reservedNames: fc.array(fieldNameFragment, { maxLength: 1 }),
  });
}

function filePlan(limits: PlanLimits): fc.Arbitrary<FilePlan> {
  return fc.record({
    path: protoPathFragment,
    syntax: fc.constantFrom<FilePlan['syntax']>('proto3', 'proto2'),
    packageName: fc.option(packageSegments, { freq: 4 }),
    goPackage: fc.boolean(),
    deprecated: rarely,
    imports: fc.array(fc.record({ pick: fc.nat({ max: 15 }), public: fc.boolean() }), { maxLength: 3 }),
    messages: fc.array(messagePlan(limits), { maxLength: limits.maxMessages }),
    enums: fc.array(enumPlan(), { maxLength: 2 }),
    services: fc.array(
      fc.record({
        name: typeNameFragment,
        methods: fc.array(
          fc.record({ name: typeNameFragment, input: fc.nat({ max: 31 }), output: fc.nat({ max: 31 }), clientStreaming: fc.boolean(), serverStreaming: fc.boolean() }),
          { minLength: 1, maxLength: 3 },
        ),
      }),
      { maxLength: 1 },
    ),
    extends: fc.array(extendPlan(), { maxLength: 2 }),
    wellKnown: fc.array(fc.nat({ max: WELL_KNOWN_FILES.length - 1 }), { maxLength: 2 }),
  });
}

/**
 * Plans of descriptor sets: up to maxFiles files (an empty list stands for one empty file, see
 * the builder). Shrinking removes files, declarations and members and lowers hints; the builder
 * keeps every shrunk plan valid.
 */
export function setPlan(limits: Partial<PlanLimits> = {}): fc.Arbitrary<SetPlan> {
  const full: PlanLimits = { ...DEFAULT_PLAN_LIMITS, ...limits };
  // No minLength: fast-check cannot drop the last element of an array at its minimum length,
  // so a required first file would pin an unrelated file in every shrunk counterexample.
  return fc.record({ maxDepth: fc.constant(full.maxDepth), files: fc.array(filePlan(full), { maxLength: Math.max(1, full.maxFiles) }) });
}

/** The file an empty plan stands for: a set always holds at least one file. */
export const EMPTY_FILE_PLAN: FilePlan = {
  path: { dirs: [], base: 'main' },
  syntax: 'proto3',
  packageName: null,
  goPackage: false,
  deprecated: false,
  imports: [],
  messages: [],
  enums: [],
  services: [],
  extends: [],
  wellKnown: [],
};
