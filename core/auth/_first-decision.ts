/**
 * A union's walk over its members (kube's union authenticator and authorizer): each member is asked in turn until one
 * decides, and what the others said is kept for the answer when none does. Synchronous while the members answer
 * synchronously; from the first member that answers with a promise on, it waits.
 */
export interface UnionWalk<Member, Result> {
  ask(member: Member): Result | Promise<Result>;
  /** Whether `result` decides; a result that does not may leave a note. */
  decides(result: Result, notes: string[]): boolean;
  undecided(notes: string[]): Result;
}

export function firstDecision<Member, Result>(members: readonly Member[], walk: UnionWalk<Member, Result>): Result | Promise<Result> {
  const notes: string[] = [];
  for (let index = 0; index < members.length; index++) {
    const result = walk.ask(members[index]!);
    if (result instanceof Promise) return decisionFrom(members, walk, index, result, notes);
    if (walk.decides(result, notes)) return result;
  }
  return walk.undecided(notes);
}

async function decisionFrom<Member, Result>(
  members: readonly Member[],
  walk: UnionWalk<Member, Result>,
  index: number,
  pending: Promise<Result>,
  notes: string[],
): Promise<Result> {
  for (let next = index; next < members.length; next++) {
    const result = await (next === index ? pending : walk.ask(members[next]!));
    if (walk.decides(result, notes)) return result;
  }
  return walk.undecided(notes);
}
