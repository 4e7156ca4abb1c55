/**
 * The structural plan a descriptor set is built from (see descriptor-plan.ts for the
 * arbitraries and build-descriptor-set.ts for the mapping). Every plan, including every value
 * fast-check shrinks a plan to, maps to a valid set: the plan only says what to declare and
 * gives hints (name fragments, number hints, picks into candidate lists); the builder turns
 * hints into unique names, free numbers and resolvable references deterministically.
 */

/** What a field's type should be: a scalar (index into the scalar list) or a pick among visible types. */
export type TypeChoice =
  | { kind: 'scalar'; scalar: number }
  | { kind: 'message'; pick: number }
  | { kind: 'enum'; pick: number };

/**
 * How the field is declared. In proto3 `required` is read as a plain singular field and
 * `optional` as proto3 `optional`; in proto2 `singular` is `optional`.
 */
export type LabelChoice = 'singular' | 'optional' | 'required' | 'repeated';

/** A field of a message, a member of a oneof, or an extension. */
export interface FieldPlan {
  name: string;
  label: LabelChoice;
  type: TypeChoice;
  numberHint: number;
  /** Index into the default values that fit the field's type; proto2 only. */
  defaultPick: number | null;
  packed: boolean;
  deprecated: boolean;
}

/** A oneof and its members (at least one). */
export interface OneofPlan {
  name: string;
  fields: FieldPlan[];
}

/** A map field; `key` picks among the map key types. */
export interface MapPlan {
  name: string;
  key: number;
  value: TypeChoice;
  numberHint: number;
}

/** What a message declares, in declaration order. */
export type MemberPlan =
  | { kind: 'field'; field: FieldPlan }
  | { kind: 'oneof'; oneof: OneofPlan }
  | { kind: 'map'; map: MapPlan };

/** A reserved range or (proto2 only) an extension range of a message. */
export interface RangePlan {
  kind: 'reserved' | 'extension';
  startHint: number;
  length: number;
  /** Extension ranges only: run to the largest field number. */
  toMax: boolean;
}

/** An `extend` block (proto2 files only). */
export interface ExtendPlan {
  /** Pick among visible proto2 messages that declare extension ranges. */
  target: number;
  fields: FieldPlan[];
}

/** One enum value. */
export interface EnumValuePlan {
  name: string;
  numberHint: number;
  deprecated: boolean;
}

/** An enum (top-level or nested). */
export interface EnumPlan {
  name: string;
  values: EnumValuePlan[];
  /** Give the last value the number of the first, with `allowAlias`. */
  alias: boolean;
  reserved: { startHint: number; length: number }[];
  reservedNames: string[];
}

/** A message; nesting comes from `parent`. */
export interface MessagePlan {
  name: string;
  /**
   * Null for a top-level message; otherwise a pick among the messages before this one in the
   * file, which becomes its parent (when the depth limit allows). A flat list with parent picks
   * lets shrinking lift a nested message to the top and drop the messages around it.
   */
  parent: number | null;
  deprecated: boolean;
  members: MemberPlan[];
  enums: EnumPlan[];
  extends: ExtendPlan[];
  ranges: RangePlan[];
  reservedNames: string[];
}

/** An RPC method; `input` and `output` pick among visible messages. */
export interface MethodPlan {
  name: string;
  input: number;
  output: number;
  clientStreaming: boolean;
  serverStreaming: boolean;
}

/** A service and its methods. */
export interface ServicePlan {
  name: string;
  methods: MethodPlan[];
}

/** One import of an earlier file. */
export interface ImportPlan {
  /** Index among the files before this one (taken modulo their count). */
  pick: number;
  public: boolean;
}

/** One .proto file. */
export interface FilePlan {
  path: { dirs: string[]; base: string };
  syntax: 'proto2' | 'proto3';
  packageName: string[] | null;
  goPackage: boolean;
  deprecated: boolean;
  imports: ImportPlan[];
  messages: MessagePlan[];
  enums: EnumPlan[];
  services: ServicePlan[];
  extends: ExtendPlan[];
  /** Picks into WELL_KNOWN_FILES (well-known.ts): well-known files this file imports. */
  wellKnown: number[];
}

/** A whole descriptor set. */
export interface SetPlan {
  /** Nesting depth limit the builder applies to parent picks. */
  maxDepth: number;
  files: FilePlan[];
}

/** Size limits of generated plans. */
export interface PlanLimits {
  /** Files per set (at least 1). */
  maxFiles: number;
  /** Depth of nested messages (0: top-level only). */
  maxDepth: number;
  /** Messages per file, nested ones included. */
  maxMessages: number;
  maxMembers: number;
}
