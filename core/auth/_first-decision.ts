/**
 * A union's walk over its members (kube's union authenticator and authorizer): each member is asked in turn until one
 * decides, and what the others said is kept for the answer when none does. Synchronous while the members answer
 * synchronously; from the first member that answers with a promise on, it waits. A walk is made once per union and
 * gets each call's question, so asking makes no closure.
 */
export interface UnionWalk<Member, Question, Result> {
  ask(member: Member, question: Question): Result | Promise<Result>;
  /** Whether `result` decides; a result that does not may leave a note. */
  decides(result: Result, notes: string[]): boolean;
  undecided(notes: string[]): Result;
}

export function firstDecision<Member, Question, Result>(
  members: readonly Member[],
  walk: UnionWalk<Member, Question, Result>,
  question: Question,
): Result | Promise<Result> {
  const notes: string[] = [];
  for (let index = 0; index < members.length; index++) {
    const result = walk.ask(members[index]!, question);
    if (result instanceof Promise) return decisionFrom(members, walk, question, index, result, notes);
    if (walk.decides(result, notes)) return result;
  }
  return walk.undecided(notes);
}

async function decisionFrom<Member, Question, Result>(
  members: readonly Member[],
  walk: UnionWalk<Member, Question, Result>,
  question: Question,
  index: number,
  pending: Promise<Result>,
  notes: string[],
): Promise<Result> {
  for (let next = index; next < members.length; next++) {
    const result = await (next === index ? pending : walk.ask(members[next]!, question));
    if (walk.decides(result, notes)) return result;
  }
  return walk.undecided(notes);
}
