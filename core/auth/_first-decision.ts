/**
 * A union's walk over its members (kube's union authenticator and authorizer): each member is asked in turn until one
 * decides, and what the others said is kept for the answer when none does. Synchronous while the members answer
 * synchronously; from the first member that answers with a promise on, it waits. A walk is made once per union and
 * handed the request's input, so a request makes no closure here.
 */
export interface UnionWalk<Member, Input, Detail, Result> {
  ask(member: Member, input: Input, detail: Detail): Result | Promise<Result>;
  decides(result: Result): boolean;
  /** What an undeciding result leaves for the answer, if anything. */
  note(result: Result): string | undefined;
  undecided(notes: readonly string[]): Result;
}

const NO_NOTES: readonly string[] = [];

export function firstDecision<Member, Input, Detail, Result>(
  members: readonly Member[],
  walk: UnionWalk<Member, Input, Detail, Result>,
  input: Input,
  detail: Detail,
): Result | Promise<Result> {
  let notes: string[] | undefined;
  for (let index = 0; index < members.length; index++) {
    const result = walk.ask(members[index]!, input, detail);
    if (result instanceof Promise) return decisionFrom(members, walk, input, detail, index, result, notes ?? []);
    if (walk.decides(result)) return result;
    const note = walk.note(result);
    if (note !== undefined) (notes ??= []).push(note);
  }
  return walk.undecided(notes ?? NO_NOTES);
}

async function decisionFrom<Member, Input, Detail, Result>(
  members: readonly Member[],
  walk: UnionWalk<Member, Input, Detail, Result>,
  input: Input,
  detail: Detail,
  index: number,
  pending: Promise<Result>,
  notes: string[],
): Promise<Result> {
  for (let next = index; next < members.length; next++) {
    const result = await (next === index ? pending : walk.ask(members[next]!, input, detail));
    if (walk.decides(result)) return result;
    const note = walk.note(result);
    if (note !== undefined) notes.push(note);
  }
  return walk.undecided(notes);
}
