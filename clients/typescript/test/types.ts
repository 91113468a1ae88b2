// Compile-only checks (`npm test` runs tsc over this file first): the types users see come from the
// OpenAPI document and refuse what the server would refuse. Each @ts-expect-error fails the build if
// the line below it stops being an error.
import { Memlane, NotFound, type Context, type Fact, type Hit, type HitGroup } from "../dist/index.js";

export async function typed(mem: Memlane): Promise<void> {
  const fact: Fact = await mem.remember("Alice likes tea", { user: "alice", importance: 4, visibility: "shared" });
  const owner: string | null = fact.owner;
  // @ts-expect-error: not a field of a fact
  void fact.colour;
  // @ts-expect-error: not an option of remember
  await mem.remember("x", { colour: "red" });
  // @ts-expect-error: visibility is "private" or "shared"
  await mem.remember("x", { visibility: "public" });
  // @ts-expect-error: not a role
  await mem.addMessage("t", "wizard", "hi");
  // @ts-expect-error: threads' options are the route's query parameters
  await mem.threads({ statuz: "open" });

  const hits: Hit[] = await mem.recall("tea", { user: "alice", kinds: ["fact"] });
  const groups: HitGroup[] = await mem.recall("tea", { group_by: "thread" });
  // @ts-expect-error: grouped recall answers groups, not hits
  const wrong: Hit[] = await mem.recall("tea", { group_by: "thread" });
  const grouping: "thread" | null = Math.random() > 0.5 ? "thread" : null;
  const either: Hit[] | HitGroup[] = await mem.recall("tea", { group_by: grouping });

  const ctx: Context = await mem.context("t", { user: "alice", budget: 2000 });
  const first: { role: string; content: string | null } | undefined = ctx.openai_messages[0];
  const cleared: number = await mem.resetThread("t");
  const removed: void = await mem.deleteThread("t");
  void [owner, hits, groups, wrong, either, first, cleared, removed];

  try {
    await mem.fact(1);
  } catch (error) {
    if (error instanceof NotFound) {
      const status: number | undefined = error.status;
      void status;
    }
  }
}
