/**
 * Types of memlane's HTTP API, generated from its OpenAPI document by openapi-typescript.
 * Do not edit: run `npm run gen` in clients/typescript (tests/test_ts_client.py checks this file is current).
 */

export interface paths {
    "/v1/agents/{agent}/threads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List threads, most recently active first */
        get: operations["list_threads_v1_agents__agent__threads_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/threads/{thread}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One thread */
        get: operations["get_thread_v1_agents__agent__threads__thread__get"];
        /** Create a thread, or set its system prompt and metadata */
        put: operations["put_thread_v1_agents__agent__threads__thread__put"];
        post?: never;
        /** Delete a thread, its messages and summaries */
        delete: operations["delete_thread_v1_agents__agent__threads__thread__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/threads/{thread}/end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the conversation (queues its memory) */
        post: operations["end_thread_v1_agents__agent__threads__thread__end_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/threads/{thread}/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Clear the conversation, keep the facts */
        post: operations["reset_thread_v1_agents__agent__threads__thread__reset_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/threads/{thread}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The thread's messages in order, paged */
        get: operations["history_v1_agents__agent__threads__thread__messages_get"];
        put?: never;
        /** Append one message */
        post: operations["add_message_v1_agents__agent__threads__thread__messages_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/threads/{thread}/messages/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Append several messages at once */
        post: operations["add_messages_v1_agents__agent__threads__thread__messages_batch_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/messages/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Append messages to several threads at once */
        post: operations["add_to_threads_v1_agents__agent__messages_batch_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/threads/{thread}/messages/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One message of the thread */
        get: operations["get_message_v1_agents__agent__threads__thread__messages__message_id__get"];
        put?: never;
        post?: never;
        /** Delete one message */
        delete: operations["delete_message_v1_agents__agent__threads__thread__messages__message_id__delete"];
        options?: never;
        head?: never;
        /** Edit a message (a platform's edit) */
        patch: operations["edit_message_v1_agents__agent__threads__thread__messages__message_id__patch"];
        trace?: never;
    };
    "/v1/agents/{agent}/threads/{thread}/messages/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete several messages (a platform's deletion) */
        post: operations["delete_messages_v1_agents__agent__threads__thread__messages_delete_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/threads/{thread}/external/{external_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The message a platform id names */
        get: operations["external_message_v1_agents__agent__threads__thread__external__external_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/prune": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete threads idle for a number of days (their facts stay) */
        post: operations["prune_v1_agents__agent__prune_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/prune/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete messages older than a number of days, keeping their threads */
        post: operations["prune_messages_v1_agents__agent__prune_messages_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/summaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Summaries: a thread's rolling ones, memories, profiles and digests */
        get: operations["summaries_v1_agents__agent__summaries_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/threads/{thread}/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The token-budgeted context for the next model call */
        post: operations["context_v1_agents__agent__threads__thread__context_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/recall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The memories most relevant to a query, with every filter of Memory.recall */
        post: operations["recall_v1_agents__agent__recall_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/facts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Facts a user may see (their own, shared and the agent's) */
        get: operations["list_facts_v1_agents__agent__facts_get"];
        put?: never;
        /** Remember a fact */
        post: operations["remember_v1_agents__agent__facts_post"];
        /** Forget every fact a user owns (or the agent's own) */
        delete: operations["forget_all_v1_agents__agent__facts_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/facts/{fact_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One fact with its change history */
        get: operations["get_fact_v1_agents__agent__facts__fact_id__get"];
        put?: never;
        post?: never;
        /** Forget one fact (owner only); returns what it was */
        delete: operations["forget_v1_agents__agent__facts__fact_id__delete"];
        options?: never;
        head?: never;
        /** Change a fact's content, importance, category ... */
        patch: operations["update_fact_v1_agents__agent__facts__fact_id__patch"];
        trace?: never;
    };
    "/v1/agents/{agent}/facts/{fact_id}/visibility": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Share a fact, or make it private (owner only) */
        put: operations["set_visibility_v1_agents__agent__facts__fact_id__visibility_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Share a fact, or make it private (owner only; as PUT) */
        patch: operations["set_visibility_v1_agents__agent__facts__fact_id__visibility_patch"];
        trace?: never;
    };
    "/v1/agents/{agent}/facts/forget-matching": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Forget the user's facts that say a text */
        post: operations["forget_matching_v1_agents__agent__facts_forget_matching_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the agent's memories */
        get: operations["list_memories_v1_agents__agent__memories_get"];
        put?: never;
        post?: never;
        /** Purge every memory of the agent */
        delete: operations["purge_memories_v1_agents__agent__memories_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/memories/{memory_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete one memory */
        delete: operations["delete_memory_v1_agents__agent__memories__memory_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/profiles/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the agent knows about a user (their merged profile) */
        get: operations["profile_v1_agents__agent__profiles__user__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/digests/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's profile with today and the last week merged */
        get: operations["digest_v1_agents__agent__digests__user__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's background jobs, dead letters included */
        get: operations["jobs_v1_agents__agent__jobs_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/jobs/{job_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a dead job back to the queue */
        post: operations["retry_job_v1_agents__agent__jobs__job_id__retry_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** LLM usage per operation, since a time */
        get: operations["usage_v1_agents__agent__usage_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/usage/days": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** LLM calls and tokens per UTC day, the last `days` days, oldest first */
        get: operations["usage_by_day_v1_agents__agent__usage_days_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Backend, schema version and this agent's row counts */
        get: operations["status_v1_agents__agent__status_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's memory as a JSON Lines stream */
        get: operations["export_v1_agents__agent__export_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Load a JSON Lines export into the agent, in one transaction */
        post: operations["import__v1_agents__agent__import_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/users/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What memlane keeps about a user: persona, context, interactions */
        get: operations["user_record_v1_agents__agent__users__user__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set a user's preferred persona or custom context */
        patch: operations["set_user_v1_agents__agent__users__user__patch"];
        trace?: never;
    };
    "/v1/agents/{agent}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Count a text's tokens with the agent's tokenizer */
        post: operations["count_tokens_v1_agents__agent__tokens_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}/flush": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Wait for the vectors of the writes already made (at most 30 s) */
        post: operations["flush_v1_agents__agent__flush_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete the agent: its conversations, facts, profiles and digests (memories unless purge) */
        delete: operations["delete_agent_v1_agents__agent__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's scope, agent and user (what a key may reach) */
        get: operations["whoami_v1_whoami_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every agent with anything stored (admin keys) */
        get: operations["agents_v1_agents_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every API key (never the keys themselves) */
        get: operations["list_keys_v1_keys_get"];
        put?: never;
        /** Create an API key; the response holds it, once, in `key` */
        post: operations["create_key_v1_keys_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: operations["revoke_key_v1_keys__key_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** LLM usage of every agent per operation, since a time (admin keys) */
        get: operations["all_usage_v1_usage_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/db/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The store: backend, location, schema version, row counts (memlane db status) */
        get: operations["db_status_v1_db_status_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
        get: operations["healthz_healthz_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The store answers and its schema is current */
        get: operations["readyz_readyz_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics */
        get: operations["metrics_metrics_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * ApiKey
         * @description An API key as stored: only the SHA-256 of the key itself, and the key's first characters to tell it apart.
         *
         *     ``agent`` is None for an admin key; ``user`` is set for a user key only.
         * @example {
         *       "id": 3,
         *       "prefix": "ml_Xk2p9aQ",
         *       "scope": "user",
         *       "agent": "support-bot",
         *       "user": "alice",
         *       "label": "alice's phone",
         *       "created_at": "2026-11-24T09:31:00Z",
         *       "expires_at": null,
         *       "revoked_at": null
         *     }
         */
        ApiKey: {
            /** Id */
            id: number;
            /** Prefix */
            prefix: string;
            /**
             * Scope
             * @enum {string}
             */
            scope: "admin" | "agent" | "user";
            /** Agent */
            agent: string | null;
            /** User */
            user: string | null;
            /** Label */
            label: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Expires At */
            expires_at: string | null;
            /** Revoked At */
            revoked_at: string | null;
        };
        /**
         * ContextBody
         * @description ``Memory.context``'s arguments.
         * @example {
         *       "query": "where do we eat tonight?",
         *       "user": "alice",
         *       "budget": 1000
         *     }
         */
        ContextBody: {
            /** Query */
            query?: string | null;
            /** User */
            user?: string | null;
            /** Budget */
            budget?: number | null;
            /** System Prompt */
            system_prompt?: string | null;
        };
        /**
         * ContextOut
         * @description A context: the OpenAI-style messages, the sections with token counts, and what it is made of.
         * @example {
         *       "openai_messages": [
         *         {
         *           "role": "system",
         *           "content": "You plan trips.\n\n## Remembered facts\n- [preference] Alice is vegetarian"
         *         },
         *         {
         *           "role": "user",
         *           "content": "Bob: where do we eat tonight?"
         *         }
         *       ],
         *       "sections": [
         *         {
         *           "title": "Remembered facts",
         *           "lines": [
         *             "[preference] Alice is vegetarian"
         *           ],
         *           "tokens": 9
         *         }
         *       ],
         *       "system_prompt": "You plan trips.",
         *       "summaries": [],
         *       "facts": [
         *         {
         *           "id": 2,
         *           "agent": "support-bot",
         *           "content": "Alice is vegetarian",
         *           "category": "preference",
         *           "importance": 4,
         *           "owner": "alice",
         *           "subject": null,
         *           "visibility": "private",
         *           "source_thread": "lisbon-trip",
         *           "source_from_seq": 12,
         *           "source_to_seq": 12,
         *           "metadata": {},
         *           "created_at": "2026-11-24T09:31:00Z",
         *           "updated_at": "2026-11-24T09:31:00Z",
         *           "last_accessed_at": null,
         *           "access_count": 0,
         *           "status": "active",
         *           "valid_from": null,
         *           "invalid_at": null,
         *           "superseded_by": null
         *         }
         *       ],
         *       "recalled": [],
         *       "messages": [
         *         {
         *           "id": 12,
         *           "agent": "support-bot",
         *           "thread": "lisbon-trip",
         *           "seq": 12,
         *           "role": "user",
         *           "content": "Alice is vegetarian, so no seafood place for her",
         *           "user": "bob",
         *           "name": "Bob",
         *           "tool_calls": null,
         *           "tool_call_id": null,
         *           "token_count": 16,
         *           "metadata": {},
         *           "created_at": "2026-11-24T09:31:00Z",
         *           "summarized": false
         *         }
         *       ],
         *       "budget": 4000,
         *       "encoding": "o200k_base",
         *       "tokens": 61,
         *       "dropped_messages": 0,
         *       "extra_sections": []
         *     }
         */
        ContextOut: {
            /** Openai Messages */
            openai_messages: {
                [key: string]: unknown;
            }[];
            /** Sections */
            sections: components["schemas"]["SectionOut"][];
            /** System Prompt */
            system_prompt: string;
            /** Summaries */
            summaries: components["schemas"]["Summary"][];
            /** Facts */
            facts: components["schemas"]["Fact"][];
            /** Recalled */
            recalled: components["schemas"]["Hit"][];
            /** Messages */
            messages: components["schemas"]["Message"][];
            /** Budget */
            budget: number;
            /** Encoding */
            encoding: string;
            /** Tokens */
            tokens: number;
            /** Dropped Messages */
            dropped_messages: number;
            /** Extra Sections */
            extra_sections: [
                string,
                string[]
            ][];
        };
        /**
         * Deleted
         * @description The answer to a delete: ``success`` and ``deletedCount``.
         * @example {
         *       "success": true,
         *       "deletedCount": 8
         *     }
         */
        Deleted: {
            /** Success */
            success: boolean;
            /** Deletedcount */
            deletedCount: number;
        };
        /**
         * EditBody
         * @description A message's new text (the chat platform's edit).
         * @example {
         *       "content": "the printer on floor 2 is jammed"
         *     }
         */
        EditBody: {
            /** Content */
            content: string;
        };
        /**
         * Fact
         * @description A remembered memory: something about a user (``owner``) or about a ``subject``.
         *
         *     ``owner`` is None for the agent's own memories, which every user of the agent may see.
         * @example {
         *       "id": 2,
         *       "agent": "support-bot",
         *       "content": "Alice is vegetarian",
         *       "category": "preference",
         *       "importance": 4,
         *       "owner": "alice",
         *       "subject": null,
         *       "visibility": "private",
         *       "source_thread": "lisbon-trip",
         *       "source_from_seq": 12,
         *       "source_to_seq": 12,
         *       "metadata": {},
         *       "created_at": "2026-11-24T09:31:00Z",
         *       "updated_at": "2026-11-24T09:31:00Z",
         *       "last_accessed_at": null,
         *       "access_count": 0,
         *       "status": "active",
         *       "valid_from": null,
         *       "invalid_at": null,
         *       "superseded_by": null
         *     }
         */
        Fact: {
            /** Id */
            id: number;
            /** Agent */
            agent: string;
            /** Content */
            content: string;
            /** Category */
            category: string;
            /** Importance */
            importance: number;
            /** Owner */
            owner: string | null;
            /** Subject */
            subject: string | null;
            /**
             * Visibility
             * @enum {string}
             */
            visibility: "private" | "shared";
            /** Source Thread */
            source_thread: string | null;
            /** Source From Seq */
            source_from_seq: number | null;
            /** Source To Seq */
            source_to_seq: number | null;
            /** Metadata */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /** Last Accessed At */
            last_accessed_at: string | null;
            /** Access Count */
            access_count: number;
            /**
             * Status
             * @default active
             * @enum {string}
             */
            status?: "active" | "superseded";
            /** Valid From */
            valid_from?: string | null;
            /** Invalid At */
            invalid_at?: string | null;
            /** Superseded By */
            superseded_by?: number | null;
        };
        /**
         * FactBody
         * @description ``Memory.remember``'s arguments.
         * @example {
         *       "content": "Alice is vegetarian",
         *       "user": "alice",
         *       "category": "preference",
         *       "importance": 4
         *     }
         */
        FactBody: {
            /** Content */
            content: string;
            /** User */
            user?: string | null;
            /**
             * Category
             * @default fact
             */
            category?: string;
            /**
             * Importance
             * @default 3
             */
            importance?: number;
            /** Visibility */
            visibility?: ("private" | "shared") | null;
            /** Subject */
            subject?: string | null;
            /** Metadata */
            metadata?: {
                [key: string]: unknown;
            } | null;
            /** Thread */
            thread?: string | null;
        };
        /**
         * FactChange
         * @description One entry of a fact's audit history.
         * @example {
         *       "id": 5,
         *       "fact_id": 2,
         *       "action": "update",
         *       "actor": "alice",
         *       "old_content": "Alice eats fish",
         *       "new_content": "Alice is vegetarian",
         *       "changes": {
         *         "content": [
         *           "Alice eats fish",
         *           "Alice is vegetarian"
         *         ]
         *       },
         *       "at": "2026-11-24T09:31:00Z"
         *     }
         */
        FactChange: {
            /** Id */
            id: number;
            /** Fact Id */
            fact_id: number;
            /** Action */
            action: string;
            /** Actor */
            actor: string | null;
            /** Old Content */
            old_content: string | null;
            /** New Content */
            new_content: string | null;
            /** Changes */
            changes: {
                [key: string]: unknown;
            };
            /**
             * At
             * Format: date-time
             */
            at: string;
        };
        /**
         * FactOut
         * @description A fact with its change history (empty for a user who sees another user's shared fact: its current
         *     text only, never the earlier versions).
         * @example {
         *       "fact": {
         *         "id": 2,
         *         "agent": "support-bot",
         *         "content": "Alice is vegetarian",
         *         "category": "preference",
         *         "importance": 4,
         *         "owner": "alice",
         *         "subject": null,
         *         "visibility": "private",
         *         "source_thread": "lisbon-trip",
         *         "source_from_seq": 12,
         *         "source_to_seq": 12,
         *         "metadata": {},
         *         "created_at": "2026-11-24T09:31:00Z",
         *         "updated_at": "2026-11-24T09:31:00Z",
         *         "last_accessed_at": null,
         *         "access_count": 0,
         *         "status": "active",
         *         "valid_from": null,
         *         "invalid_at": null,
         *         "superseded_by": null
         *       },
         *       "history": [
         *         {
         *           "id": 5,
         *           "fact_id": 2,
         *           "action": "update",
         *           "actor": "alice",
         *           "old_content": "Alice eats fish",
         *           "new_content": "Alice is vegetarian",
         *           "changes": {
         *             "content": [
         *               "Alice eats fish",
         *               "Alice is vegetarian"
         *             ]
         *           },
         *           "at": "2026-11-24T09:31:00Z"
         *         }
         *       ]
         *     }
         */
        FactOut: {
            fact: components["schemas"]["Fact"];
            /** History */
            history: components["schemas"]["FactChange"][];
        };
        /**
         * FactPatch
         * @description What ``Memory.update_fact`` changes; ``user`` acts as the owner.
         * @example {
         *       "content": "Alice is vegan",
         *       "importance": 5
         *     }
         */
        FactPatch: {
            /** Content */
            content?: string | null;
            /** Category */
            category?: string | null;
            /** Importance */
            importance?: number | null;
            /** Visibility */
            visibility?: ("private" | "shared") | null;
            /** Subject */
            subject?: string | null;
            /** Metadata */
            metadata?: {
                [key: string]: unknown;
            } | null;
            /** User */
            user?: string | null;
        };
        /**
         * FlushBody
         * @description Wait up to ``timeout`` seconds (at most 30) for the vectors of writes already made.
         * @example {
         *       "timeout": 5
         *     }
         */
        FlushBody: {
            /** Timeout */
            timeout?: number | null;
        };
        /**
         * ForgetMatchingBody
         * @description Forget the user's facts that say ``text`` (``Memory.forget_matching``).
         * @example {
         *       "text": "Bob likes pizza",
         *       "user": "bob"
         *     }
         */
        ForgetMatchingBody: {
            /** Text */
            text: string;
            /** User */
            user?: string | null;
            /**
             * Purge
             * @default false
             */
            purge?: boolean;
        };
        /**
         * Hit
         * @description One ranked result of :meth:`memlane.Memory.recall`, with its provenance.
         *
         *     A message hit may show a window of neighbouring turns: then ``text`` holds one ``speaker: content``
         *     line per turn, ``user`` is None, ``message_ids`` lists every turn shown (in thread order) and
         *     ``message_id``/``seq``/``created_at``/``metadata`` are those of the turn that matched. A single-turn hit
         *     has the bare content in ``text`` and its speaker in ``user``. ``created_at`` dates the item (for a
         *     message: when it was said). ``score`` orders hits of one search; it is not comparable across searches.
         *     ``retrievers`` names the retrievers that found the item (e.g. ``("keyword", "vector")``); ``("nearby",)``
         *     when none did and the message joined as the turn just beyond a better candidate's window
         *     (``SearchConfig.beyond_window``).
         * @example {
         *       "kind": "fact",
         *       "id": 2,
         *       "text": "Alice is vegetarian",
         *       "score": 0.82,
         *       "thread": "lisbon-trip",
         *       "message_id": null,
         *       "created_at": "2026-11-24T09:31:00Z",
         *       "metadata": {},
         *       "user": "alice",
         *       "seq": null,
         *       "message_ids": [],
         *       "retrievers": [
         *         "keyword",
         *         "vector"
         *       ]
         *     }
         */
        Hit: {
            /**
             * Kind
             * @enum {string}
             */
            kind: "message" | "fact" | "summary";
            /** Id */
            id: number;
            /** Text */
            text: string;
            /** Score */
            score: number;
            /** Thread */
            thread: string | null;
            /** Message Id */
            message_id: number | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Metadata */
            metadata?: {
                [key: string]: unknown;
            };
            /** User */
            user?: string | null;
            /** Seq */
            seq?: number | null;
            /**
             * Message Ids
             * @default []
             */
            message_ids?: number[];
            /**
             * Retrievers
             * @default []
             */
            retrievers?: string[];
        };
        /**
         * HitGroup
         * @description The hits of one thread, as :meth:`memlane.Memory.recall` returns them with ``group_by="thread"``.
         *
         *     ``thread`` is None for hits not tied to a thread (most facts). ``hits`` are in the order they happened;
         *     ``score`` is the best hit's, and groups come best first.
         * @example {
         *       "thread": "lisbon-trip",
         *       "score": 0.82,
         *       "hits": [
         *         {
         *           "kind": "fact",
         *           "id": 2,
         *           "text": "Alice is vegetarian",
         *           "score": 0.82,
         *           "thread": "lisbon-trip",
         *           "message_id": null,
         *           "created_at": "2026-11-24T09:31:00Z",
         *           "metadata": {},
         *           "user": "alice",
         *           "seq": null,
         *           "message_ids": [],
         *           "retrievers": [
         *             "keyword",
         *             "vector"
         *           ]
         *         }
         *       ]
         *     }
         */
        HitGroup: {
            /** Thread */
            thread: string | null;
            /** Score */
            score: number;
            /** Hits */
            hits: components["schemas"]["Hit"][];
        };
        /**
         * Job
         * @description A durable background job (summarize a thread, create a memory, merge a profile ...).
         * @example {
         *       "id": 31,
         *       "agent": "support-bot",
         *       "kind": "summarize",
         *       "payload": {
         *         "thread": "lisbon-trip"
         *       },
         *       "status": "dead",
         *       "attempts": 5,
         *       "max_attempts": 5,
         *       "run_after": "2026-11-24T09:31:00Z",
         *       "lease_owner": null,
         *       "lease_expires_at": null,
         *       "last_error": "ProviderError: the LLM answered 503",
         *       "created_at": "2026-11-24T09:31:00Z",
         *       "updated_at": "2026-11-24T09:31:00Z"
         *     }
         */
        Job: {
            /** Id */
            id: number;
            /** Agent */
            agent: string;
            /** Kind */
            kind: string;
            /** Payload */
            payload: {
                [key: string]: unknown;
            };
            /**
             * Status
             * @enum {string}
             */
            status: "pending" | "running" | "done" | "dead";
            /** Attempts */
            attempts: number;
            /** Max Attempts */
            max_attempts: number;
            /**
             * Run After
             * Format: date-time
             */
            run_after: string;
            /** Lease Owner */
            lease_owner: string | null;
            /** Lease Expires At */
            lease_expires_at: string | null;
            /** Last Error */
            last_error: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /**
         * KeyBody
         * @description A new API key (admin only).
         * @example {
         *       "scope": "user",
         *       "agent": "support-bot",
         *       "user": "alice",
         *       "label": "alice's phone"
         *     }
         */
        KeyBody: {
            /**
             * Scope
             * @enum {string}
             */
            scope: "admin" | "agent" | "user";
            /** Agent */
            agent?: string | null;
            /** User */
            user?: string | null;
            /** Label */
            label?: string | null;
            /** Expires At */
            expires_at?: string | null;
        };
        /**
         * MemoriesOut
         * @description The agent's memories, newest first, and how many it keeps at most.
         * @example {
         *       "memories": [
         *         {
         *           "id": 9,
         *           "content": "The Lisbon trip is planned: Alfama apartment, 120 euros a day, no seafood for Alice.",
         *           "createdAt": "2026-11-24T09:31:00Z",
         *           "updatedAt": "2026-11-24T09:31:00Z",
         *           "sourceConversationId": "lisbon-trip",
         *           "metadata": {},
         *           "summary": {
         *             "id": 9,
         *             "agent": "support-bot",
         *             "thread": "lisbon-trip",
         *             "kind": "memory",
         *             "content": "The Lisbon trip is planned.",
         *             "from_seq": 1,
         *             "to_seq": 20,
         *             "owner": null,
         *             "method": "extractive",
         *             "metadata": {},
         *             "created_at": "2026-11-24T09:31:00Z"
         *           }
         *         }
         *       ],
         *       "cap": 10
         *     }
         */
        MemoriesOut: {
            /** Memories */
            memories: components["schemas"]["MemoryOut"][];
            /**
             * Cap
             * @description The memory_cap setting: memories kept at most (the oldest are compacted).
             */
            cap: number;
        };
        /**
         * MemoryOut
         * @description One agent memory: ``id``, ``content``, ``createdAt``, ``updatedAt``, plus memlane's own fields.
         * @example {
         *       "id": 9,
         *       "content": "The Lisbon trip is planned: Alfama apartment, 120 euros a day, no seafood for Alice.",
         *       "createdAt": "2026-11-24T09:31:00Z",
         *       "updatedAt": "2026-11-24T09:31:00Z",
         *       "sourceConversationId": "lisbon-trip",
         *       "metadata": {},
         *       "summary": {
         *         "id": 9,
         *         "agent": "support-bot",
         *         "thread": "lisbon-trip",
         *         "kind": "memory",
         *         "content": "The Lisbon trip is planned.",
         *         "from_seq": 1,
         *         "to_seq": 20,
         *         "owner": null,
         *         "method": "extractive",
         *         "metadata": {},
         *         "created_at": "2026-11-24T09:31:00Z"
         *       }
         *     }
         */
        MemoryOut: {
            /** Id */
            id: number;
            /** Content */
            content: string;
            /**
             * Createdat
             * Format: date-time
             */
            createdAt: string;
            /**
             * Updatedat
             * Format: date-time
             */
            updatedAt: string;
            /** Sourceconversationid */
            sourceConversationId: string | null;
            /** Metadata */
            metadata: {
                [key: string]: unknown;
            };
            /** @description The memory as memlane stores it (what Memory.list_memories returns). */
            summary: components["schemas"]["Summary"];
        };
        /**
         * Message
         * @description One stored chat message.
         *
         *     ``seq`` is its position in the thread: 1, 2, 3 … with no gaps and no repeats. After ``reset()`` the
         *     numbering goes on where it stopped (seqs are never reused, so ranges recorded in facts and summaries
         *     stay unambiguous).
         * @example {
         *       "id": 12,
         *       "agent": "support-bot",
         *       "thread": "lisbon-trip",
         *       "seq": 12,
         *       "role": "user",
         *       "content": "Alice is vegetarian, so no seafood place for her",
         *       "user": "bob",
         *       "name": "Bob",
         *       "tool_calls": null,
         *       "tool_call_id": null,
         *       "token_count": 16,
         *       "metadata": {},
         *       "created_at": "2026-11-24T09:31:00Z",
         *       "summarized": false
         *     }
         */
        Message: {
            /** Id */
            id: number;
            /** Agent */
            agent: string;
            /** Thread */
            thread: string;
            /** Seq */
            seq: number;
            /**
             * Role
             * @enum {string}
             */
            role: "user" | "assistant" | "system" | "tool";
            /** Content */
            content: string;
            /** User */
            user: string | null;
            /** Name */
            name: string | null;
            /** Tool Calls */
            tool_calls: {
                [key: string]: unknown;
            }[] | null;
            /** Tool Call Id */
            tool_call_id: string | null;
            /** Token Count */
            token_count: number;
            /** Metadata */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Summarized
             * @default false
             */
            summarized?: boolean;
        };
        /**
         * MessageBody
         * @description One message (``Memory.add_message``'s arguments). ``user``: the end user who wrote it.
         * @example {
         *       "role": "user",
         *       "content": "I'm vegetarian, by the way",
         *       "user": "alice",
         *       "name": "Alice"
         *     }
         */
        MessageBody: {
            /**
             * Role
             * @enum {string}
             */
            role: "user" | "assistant" | "system" | "tool";
            /** Content */
            content?: string | null;
            /** User */
            user?: string | null;
            /** Name */
            name?: string | null;
            /** Tool Calls */
            tool_calls?: {
                [key: string]: unknown;
            }[] | null;
            /** Tool Call Id */
            tool_call_id?: string | null;
            /** Created At */
            created_at?: string | null;
            /** Metadata */
            metadata?: {
                [key: string]: unknown;
            } | null;
        };
        /**
         * MessageIdsBody
         * @description Messages to delete, by id.
         * @example {
         *       "ids": [
         *         41,
         *         42
         *       ]
         *     }
         */
        MessageIdsBody: {
            /** Ids */
            ids: number[];
        };
        /**
         * MessagesBody
         * @description Several messages appended in one transaction (all or none).
         * @example {
         *       "messages": [
         *         {
         *           "role": "user",
         *           "content": "Where do we eat?",
         *           "user": "bob"
         *         },
         *         {
         *           "role": "assistant",
         *           "content": "Try Ao 26, it is vegan."
         *         }
         *       ]
         *     }
         */
        MessagesBody: {
            /** Messages */
            messages: components["schemas"]["MessageBody"][];
        };
        /**
         * OneMessageBody
         * @description One message; ``external_id``: the chat platform's id of it (a message delivered twice is stored once).
         * @example {
         *       "role": "user",
         *       "content": "I'm vegetarian, by the way",
         *       "user": "alice",
         *       "name": "Alice",
         *       "external_id": "slack:1716912345.000100"
         *     }
         */
        OneMessageBody: {
            /**
             * Role
             * @enum {string}
             */
            role: "user" | "assistant" | "system" | "tool";
            /** Content */
            content?: string | null;
            /** User */
            user?: string | null;
            /** Name */
            name?: string | null;
            /** Tool Calls */
            tool_calls?: {
                [key: string]: unknown;
            }[] | null;
            /** Tool Call Id */
            tool_call_id?: string | null;
            /** Created At */
            created_at?: string | null;
            /** Metadata */
            metadata?: {
                [key: string]: unknown;
            } | null;
            /** External Id */
            external_id?: string | null;
        };
        /**
         * Problem
         * @description An error (RFC 9457 problem details).
         * @example {
         *       "type": "urn:memlane:problem:not-found",
         *       "title": "Not found",
         *       "status": 404,
         *       "detail": "no fact 99 in agent 'support-bot'",
         *       "instance": "/v1/agents/support-bot/facts/99",
         *       "request_id": "3f2c9e0d8b7a4c61"
         *     }
         */
        Problem: {
            /**
             * Type
             * @description urn:memlane:problem:<kind>, stable
             * @default urn:memlane:problem:not-found
             */
            type?: string;
            /** Title */
            title: string;
            /** Status */
            status: number;
            /** Detail */
            detail: string;
            /** Instance */
            instance?: string | null;
            /** Request Id */
            request_id?: string | null;
            /** Errors */
            errors?: {
                [key: string]: unknown;
            }[] | null;
        };
        /**
         * PruneBody
         * @description Delete what is older than ``older_than_days`` days (threads idle that long, or messages: then ``thread``
         *     may narrow it to one thread).
         * @example {
         *       "older_than_days": 90
         *     }
         */
        PruneBody: {
            /** Older Than Days */
            older_than_days: number;
            /** Thread */
            thread?: string | null;
        };
        /**
         * RecallBody
         * @description ``Memory.recall``'s arguments (every filter).
         * @example {
         *       "query": "what does Alice eat?",
         *       "user": "alice",
         *       "limit": 5,
         *       "kinds": [
         *         "fact",
         *         "message"
         *       ]
         *     }
         */
        RecallBody: {
            /** Query */
            query: string;
            /** User */
            user?: string | null;
            /** Thread */
            thread?: string | null;
            /**
             * Limit
             * @default 5
             */
            limit?: number;
            /** Kinds */
            kinds?: ("message" | "fact" | "summary")[] | null;
            /** Since */
            since?: string | null;
            /** Until */
            until?: string | null;
            /**
             * Include Superseded
             * @default false
             */
            include_superseded?: boolean;
            /** Metadata */
            metadata?: {
                [key: string]: string | number | boolean | null;
            } | null;
            /** Preset */
            preset?: string | null;
            /** Now */
            now?: string | null;
            /** Group By */
            group_by?: "thread" | null;
            /** Min Score */
            min_score?: number | null;
        };
        /**
         * SectionOut
         * @description One section of the context's system message, with its size in tokens.
         * @example {
         *       "title": "Remembered facts",
         *       "lines": [
         *         "[preference] Alice is vegetarian"
         *       ],
         *       "tokens": 9
         *     }
         */
        SectionOut: {
            /** Title */
            title: string;
            /** Lines */
            lines: string[];
            /** Tokens */
            tokens: number;
        };
        /**
         * StoreStatus
         * @description What ``memlane db status`` shows. ``counts`` holds the rows of each table (of the agent, if one was
         *     asked for), and ``pending_vectors``: the messages stored whose vectors are still to come (see
         *     :mod:`memlane.memory.behind`).
         * @example {
         *       "backend": "sqlite",
         *       "location": "",
         *       "schema_version": 15,
         *       "counts": {
         *         "threads": 3,
         *         "messages": 51,
         *         "facts": 6
         *       },
         *       "meta": {
         *         "embedding_model": "minilm"
         *       }
         *     }
         */
        StoreStatus: {
            /** Backend */
            backend: string;
            /** Location */
            location: string;
            /** Schema Version */
            schema_version: number;
            /** Counts */
            counts?: {
                [key: string]: number;
            };
            /** Meta */
            meta?: {
                [key: string]: string;
            };
        };
        /**
         * Summary
         * @description A summary of a range of a thread's messages (or an agent memory, a digest ...).
         * @example {
         *       "id": 7,
         *       "agent": "support-bot",
         *       "thread": "lisbon-trip",
         *       "kind": "rolling",
         *       "content": "Bob: the budget is about 120 euros a day. Chen booked an apartment in Alfama.",
         *       "from_seq": 1,
         *       "to_seq": 20,
         *       "owner": null,
         *       "method": "extractive",
         *       "metadata": {},
         *       "created_at": "2026-11-24T09:31:00Z"
         *     }
         */
        Summary: {
            /** Id */
            id: number;
            /** Agent */
            agent: string;
            /** Thread */
            thread: string | null;
            /** Kind */
            kind: string;
            /** Content */
            content: string;
            /** From Seq */
            from_seq: number | null;
            /** To Seq */
            to_seq: number | null;
            /** Owner */
            owner: string | null;
            /** Method */
            method: string;
            /** Metadata */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
        };
        /**
         * TextBody
         * @description A text (to count its tokens).
         * @example {
         *       "text": "How many tokens is this?"
         *     }
         */
        TextBody: {
            /** Text */
            text: string;
        };
        /**
         * Thread
         * @description One conversation (a channel, a session), named by the caller within an agent.
         * @example {
         *       "agent": "support-bot",
         *       "key": "lisbon-trip",
         *       "status": "open",
         *       "system_prompt": "You plan trips.",
         *       "metadata": {
         *         "channel": "C042"
         *       },
         *       "created_at": "2026-11-23T18:02:00Z",
         *       "updated_at": "2026-11-24T09:31:00Z",
         *       "ended_at": null,
         *       "message_count": 40,
         *       "users": [
         *         "alice",
         *         "bob",
         *         "chen"
         *       ]
         *     }
         */
        Thread: {
            /** Agent */
            agent: string;
            /** Key */
            key: string;
            /**
             * Status
             * @enum {string}
             */
            status: "open" | "ended";
            /** System Prompt */
            system_prompt: string | null;
            /** Metadata */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /** Ended At */
            ended_at?: string | null;
            /**
             * Message Count
             * @default 0
             */
            message_count?: number;
            /**
             * Users
             * @default []
             */
            users?: string[];
        };
        /**
         * ThreadBody
         * @description Create a thread or set its system prompt / metadata.
         * @example {
         *       "system_prompt": "You plan trips.",
         *       "metadata": {
         *         "channel": "C042"
         *       }
         *     }
         */
        ThreadBody: {
            /** System Prompt */
            system_prompt?: string | null;
            /** Metadata */
            metadata?: {
                [key: string]: unknown;
            } | null;
        };
        /**
         * ThreadsMessagesBody
         * @description Messages for several threads at once (``Memory.add_to_threads``): their texts are embedded together,
         *     and every thread's messages stored in one transaction: all of them, or none.
         * @example {
         *       "threads": {
         *         "lisbon-trip": [
         *           {
         *             "role": "user",
         *             "content": "Hi all",
         *             "user": "chen"
         *           }
         *         ],
         *         "dm-bob": [
         *           {
         *             "role": "user",
         *             "content": "Keep it secret",
         *             "user": "bob"
         *           }
         *         ]
         *       }
         *     }
         */
        ThreadsMessagesBody: {
            /** Threads */
            threads: {
                [key: string]: components["schemas"]["MessageBody"][];
            };
        };
        /**
         * UsageDay
         * @description An agent's LLM use on one UTC day.
         * @example {
         *       "day": "2026-11-24",
         *       "calls": 12,
         *       "tokens": 5400
         *     }
         */
        UsageDay: {
            /**
             * Day
             * Format: date
             */
            day: string;
            /** Calls */
            calls: number;
            /** Tokens */
            tokens: number;
        };
        /**
         * UserPatch
         * @description A user's record: the persona they prefer and the context they asked the bot to keep in mind (null
         *     clears a field; a field left out stays as it is).
         * @example {
         *       "persona": "brief and friendly"
         *     }
         */
        UserPatch: {
            /** Persona */
            persona?: string | null;
            /** Custom Context */
            custom_context?: string | null;
        };
        /**
         * UserRecord
         * @description What memlane keeps about one user of an agent: their preferred persona, the context they
         *     asked the bot to keep in mind, how many messages they sent and when they last wrote.
         * @example {
         *       "user": "alice",
         *       "persona": "brief and friendly",
         *       "custom_context": "I'm vegetarian",
         *       "interactions": 14,
         *       "last_interaction": "2026-11-24T09:31:00Z"
         *     }
         */
        UserRecord: {
            /** User */
            user: string;
            /** Persona */
            persona?: string | null;
            /** Custom Context */
            custom_context?: string | null;
            /**
             * Interactions
             * @default 0
             */
            interactions?: number;
            /** Last Interaction */
            last_interaction?: string | null;
        };
        /**
         * VisibilityBody
         * @description Share a fact with every user of the agent, or make it private again.
         * @example {
         *       "visibility": "shared"
         *     }
         */
        VisibilityBody: {
            /**
             * Visibility
             * @enum {string}
             */
            visibility: "private" | "shared";
            /** User */
            user?: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    list_threads_v1_agents__agent__threads_get: {
        parameters: {
            query?: {
                user?: string | null;
                status?: string | null;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "agent": "support-bot",
                     *         "key": "lisbon-trip",
                     *         "status": "open",
                     *         "system_prompt": "You plan trips.",
                     *         "metadata": {
                     *           "channel": "C042"
                     *         },
                     *         "created_at": "2026-11-23T18:02:00Z",
                     *         "updated_at": "2026-11-24T09:31:00Z",
                     *         "ended_at": null,
                     *         "message_count": 40,
                     *         "users": [
                     *           "alice",
                     *           "bob",
                     *           "chen"
                     *         ]
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Thread"][];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    get_thread_v1_agents__agent__threads__thread__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agent": "support-bot",
                     *       "key": "lisbon-trip",
                     *       "status": "open",
                     *       "system_prompt": "You plan trips.",
                     *       "metadata": {
                     *         "channel": "C042"
                     *       },
                     *       "created_at": "2026-11-23T18:02:00Z",
                     *       "updated_at": "2026-11-24T09:31:00Z",
                     *       "ended_at": null,
                     *       "message_count": 40,
                     *       "users": [
                     *         "alice",
                     *         "bob",
                     *         "chen"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Thread"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    put_thread_v1_agents__agent__threads__thread__put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "system_prompt": "You plan trips.",
                 *       "metadata": {
                 *         "channel": "C042"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ThreadBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agent": "support-bot",
                     *       "key": "lisbon-trip",
                     *       "status": "open",
                     *       "system_prompt": "You plan trips.",
                     *       "metadata": {
                     *         "channel": "C042"
                     *       },
                     *       "created_at": "2026-11-23T18:02:00Z",
                     *       "updated_at": "2026-11-24T09:31:00Z",
                     *       "ended_at": null,
                     *       "message_count": 40,
                     *       "users": [
                     *         "alice",
                     *         "bob",
                     *         "chen"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Thread"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    delete_thread_v1_agents__agent__threads__thread__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    end_thread_v1_agents__agent__threads__thread__end_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agent": "support-bot",
                     *       "key": "lisbon-trip",
                     *       "status": "open",
                     *       "system_prompt": "You plan trips.",
                     *       "metadata": {
                     *         "channel": "C042"
                     *       },
                     *       "created_at": "2026-11-23T18:02:00Z",
                     *       "updated_at": "2026-11-24T09:31:00Z",
                     *       "ended_at": null,
                     *       "message_count": 40,
                     *       "users": [
                     *         "alice",
                     *         "bob",
                     *         "chen"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Thread"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    reset_thread_v1_agents__agent__threads__thread__reset_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "cleared": 40
                     *     }
                     */
                    "application/json": {
                        [key: string]: number;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    history_v1_agents__agent__threads__thread__messages_get: {
        parameters: {
            query?: {
                /** @description The last `limit` messages. */
                limit?: number;
                /** @description Only messages with a lower seq (the next page back). */
                before?: number | null;
                /** @description Only messages with a higher seq. */
                after?: number | null;
            };
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 12,
                     *         "agent": "support-bot",
                     *         "thread": "lisbon-trip",
                     *         "seq": 12,
                     *         "role": "user",
                     *         "content": "Alice is vegetarian, so no seafood place for her",
                     *         "user": "bob",
                     *         "name": "Bob",
                     *         "tool_calls": null,
                     *         "tool_call_id": null,
                     *         "token_count": 16,
                     *         "metadata": {},
                     *         "created_at": "2026-11-24T09:31:00Z",
                     *         "summarized": false
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Message"][];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    add_message_v1_agents__agent__threads__thread__messages_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique text per write (a UUID): the same write sent again (a client that timed out and retries) is stored once, and answers what the first one stored. */
                "Idempotency-Key"?: string | null;
            };
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "role": "user",
                 *       "content": "I'm vegetarian, by the way",
                 *       "user": "alice",
                 *       "name": "Alice",
                 *       "external_id": "slack:1716912345.000100"
                 *     }
                 */
                "application/json": components["schemas"]["OneMessageBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 12,
                     *       "agent": "support-bot",
                     *       "thread": "lisbon-trip",
                     *       "seq": 12,
                     *       "role": "user",
                     *       "content": "Alice is vegetarian, so no seafood place for her",
                     *       "user": "bob",
                     *       "name": "Bob",
                     *       "tool_calls": null,
                     *       "tool_call_id": null,
                     *       "token_count": 16,
                     *       "metadata": {},
                     *       "created_at": "2026-11-24T09:31:00Z",
                     *       "summarized": false
                     *     }
                     */
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    add_messages_v1_agents__agent__threads__thread__messages_batch_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique text per write (a UUID): the same write sent again (a client that timed out and retries) is stored once, and answers what the first one stored. */
                "Idempotency-Key"?: string | null;
            };
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "messages": [
                 *         {
                 *           "role": "user",
                 *           "content": "Where do we eat?",
                 *           "user": "bob"
                 *         },
                 *         {
                 *           "role": "assistant",
                 *           "content": "Try Ao 26, it is vegan."
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["MessagesBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 12,
                     *         "agent": "support-bot",
                     *         "thread": "lisbon-trip",
                     *         "seq": 12,
                     *         "role": "user",
                     *         "content": "Alice is vegetarian, so no seafood place for her",
                     *         "user": "bob",
                     *         "name": "Bob",
                     *         "tool_calls": null,
                     *         "tool_call_id": null,
                     *         "token_count": 16,
                     *         "metadata": {},
                     *         "created_at": "2026-11-24T09:31:00Z",
                     *         "summarized": false
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Message"][];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    add_to_threads_v1_agents__agent__messages_batch_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique text per write (a UUID): the same write sent again (a client that timed out and retries) is stored once, and answers what the first one stored. */
                "Idempotency-Key"?: string | null;
            };
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "threads": {
                 *         "lisbon-trip": [
                 *           {
                 *             "role": "user",
                 *             "content": "Hi all",
                 *             "user": "chen"
                 *           }
                 *         ],
                 *         "dm-bob": [
                 *           {
                 *             "role": "user",
                 *             "content": "Keep it secret",
                 *             "user": "bob"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ThreadsMessagesBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "lisbon-trip": [
                     *         {
                     *           "id": 12,
                     *           "agent": "support-bot",
                     *           "thread": "lisbon-trip",
                     *           "seq": 12,
                     *           "role": "user",
                     *           "content": "Alice is vegetarian, so no seafood place for her",
                     *           "user": "bob",
                     *           "name": "Bob",
                     *           "tool_calls": null,
                     *           "tool_call_id": null,
                     *           "token_count": 16,
                     *           "metadata": {},
                     *           "created_at": "2026-11-24T09:31:00Z",
                     *           "summarized": false
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        [key: string]: components["schemas"]["Message"][];
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    get_message_v1_agents__agent__threads__thread__messages__message_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                message_id: number;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 12,
                     *       "agent": "support-bot",
                     *       "thread": "lisbon-trip",
                     *       "seq": 12,
                     *       "role": "user",
                     *       "content": "Alice is vegetarian, so no seafood place for her",
                     *       "user": "bob",
                     *       "name": "Bob",
                     *       "tool_calls": null,
                     *       "tool_call_id": null,
                     *       "token_count": 16,
                     *       "metadata": {},
                     *       "created_at": "2026-11-24T09:31:00Z",
                     *       "summarized": false
                     *     }
                     */
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    delete_message_v1_agents__agent__threads__thread__messages__message_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                message_id: number;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    edit_message_v1_agents__agent__threads__thread__messages__message_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                message_id: number;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "the printer on floor 2 is jammed"
                 *     }
                 */
                "application/json": components["schemas"]["EditBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 12,
                     *       "agent": "support-bot",
                     *       "thread": "lisbon-trip",
                     *       "seq": 12,
                     *       "role": "user",
                     *       "content": "Alice is vegetarian, so no seafood place for her",
                     *       "user": "bob",
                     *       "name": "Bob",
                     *       "tool_calls": null,
                     *       "tool_call_id": null,
                     *       "token_count": 16,
                     *       "metadata": {},
                     *       "created_at": "2026-11-24T09:31:00Z",
                     *       "summarized": false
                     *     }
                     */
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    delete_messages_v1_agents__agent__threads__thread__messages_delete_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "ids": [
                 *         41,
                 *         42
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["MessageIdsBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": 2
                     *     }
                     */
                    "application/json": {
                        [key: string]: number;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    external_message_v1_agents__agent__threads__thread__external__external_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                external_id: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 12,
                     *       "agent": "support-bot",
                     *       "thread": "lisbon-trip",
                     *       "seq": 12,
                     *       "role": "user",
                     *       "content": "Alice is vegetarian, so no seafood place for her",
                     *       "user": "bob",
                     *       "name": "Bob",
                     *       "tool_calls": null,
                     *       "tool_call_id": null,
                     *       "token_count": 16,
                     *       "metadata": {},
                     *       "created_at": "2026-11-24T09:31:00Z",
                     *       "summarized": false
                     *     }
                     */
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    prune_v1_agents__agent__prune_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "older_than_days": 90
                 *     }
                 */
                "application/json": components["schemas"]["PruneBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": 2
                     *     }
                     */
                    "application/json": {
                        [key: string]: number;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    prune_messages_v1_agents__agent__prune_messages_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "older_than_days": 90
                 *     }
                 */
                "application/json": components["schemas"]["PruneBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": 120
                     *     }
                     */
                    "application/json": {
                        [key: string]: number;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    summaries_v1_agents__agent__summaries_get: {
        parameters: {
            query?: {
                thread?: string | null;
                kind?: string | null;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 7,
                     *         "agent": "support-bot",
                     *         "thread": "lisbon-trip",
                     *         "kind": "rolling",
                     *         "content": "Bob: the budget is about 120 euros a day. Chen booked an apartment in Alfama.",
                     *         "from_seq": 1,
                     *         "to_seq": 20,
                     *         "owner": null,
                     *         "method": "extractive",
                     *         "metadata": {},
                     *         "created_at": "2026-11-24T09:31:00Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Summary"][];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    context_v1_agents__agent__threads__thread__context_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The thread; a '/' in it is sent as %2F (names: docs/service.md). */
                thread: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "where do we eat tonight?",
                 *       "user": "alice",
                 *       "budget": 1000
                 *     }
                 */
                "application/json": components["schemas"]["ContextBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openai_messages": [
                     *         {
                     *           "role": "system",
                     *           "content": "You plan trips.\n\n## Remembered facts\n- [preference] Alice is vegetarian"
                     *         },
                     *         {
                     *           "role": "user",
                     *           "content": "Bob: where do we eat tonight?"
                     *         }
                     *       ],
                     *       "sections": [
                     *         {
                     *           "title": "Remembered facts",
                     *           "lines": [
                     *             "[preference] Alice is vegetarian"
                     *           ],
                     *           "tokens": 9
                     *         }
                     *       ],
                     *       "system_prompt": "You plan trips.",
                     *       "summaries": [],
                     *       "facts": [
                     *         {
                     *           "id": 2,
                     *           "agent": "support-bot",
                     *           "content": "Alice is vegetarian",
                     *           "category": "preference",
                     *           "importance": 4,
                     *           "owner": "alice",
                     *           "subject": null,
                     *           "visibility": "private",
                     *           "source_thread": "lisbon-trip",
                     *           "source_from_seq": 12,
                     *           "source_to_seq": 12,
                     *           "metadata": {},
                     *           "created_at": "2026-11-24T09:31:00Z",
                     *           "updated_at": "2026-11-24T09:31:00Z",
                     *           "last_accessed_at": null,
                     *           "access_count": 0,
                     *           "status": "active",
                     *           "valid_from": null,
                     *           "invalid_at": null,
                     *           "superseded_by": null
                     *         }
                     *       ],
                     *       "recalled": [],
                     *       "messages": [
                     *         {
                     *           "id": 12,
                     *           "agent": "support-bot",
                     *           "thread": "lisbon-trip",
                     *           "seq": 12,
                     *           "role": "user",
                     *           "content": "Alice is vegetarian, so no seafood place for her",
                     *           "user": "bob",
                     *           "name": "Bob",
                     *           "tool_calls": null,
                     *           "tool_call_id": null,
                     *           "token_count": 16,
                     *           "metadata": {},
                     *           "created_at": "2026-11-24T09:31:00Z",
                     *           "summarized": false
                     *         }
                     *       ],
                     *       "budget": 4000,
                     *       "encoding": "o200k_base",
                     *       "tokens": 61,
                     *       "dropped_messages": 0,
                     *       "extra_sections": []
                     *     }
                     */
                    "application/json": components["schemas"]["ContextOut"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    recall_v1_agents__agent__recall_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "what does Alice eat?",
                 *       "user": "alice",
                 *       "limit": 5,
                 *       "kinds": [
                 *         "fact",
                 *         "message"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["RecallBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "kind": "fact",
                     *         "id": 2,
                     *         "text": "Alice is vegetarian",
                     *         "score": 0.82,
                     *         "thread": "lisbon-trip",
                     *         "message_id": null,
                     *         "created_at": "2026-11-24T09:31:00Z",
                     *         "metadata": {},
                     *         "user": "alice",
                     *         "seq": null,
                     *         "message_ids": [],
                     *         "retrievers": [
                     *           "keyword",
                     *           "vector"
                     *         ]
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Hit"][] | components["schemas"]["HitGroup"][];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    list_facts_v1_agents__agent__facts_get: {
        parameters: {
            query?: {
                user?: string | null;
                subject?: string | null;
                category?: string | null;
                visibility?: string | null;
                thread?: string | null;
                all_users?: boolean;
                include_superseded?: boolean;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 2,
                     *         "agent": "support-bot",
                     *         "content": "Alice is vegetarian",
                     *         "category": "preference",
                     *         "importance": 4,
                     *         "owner": "alice",
                     *         "subject": null,
                     *         "visibility": "private",
                     *         "source_thread": "lisbon-trip",
                     *         "source_from_seq": 12,
                     *         "source_to_seq": 12,
                     *         "metadata": {},
                     *         "created_at": "2026-11-24T09:31:00Z",
                     *         "updated_at": "2026-11-24T09:31:00Z",
                     *         "last_accessed_at": null,
                     *         "access_count": 0,
                     *         "status": "active",
                     *         "valid_from": null,
                     *         "invalid_at": null,
                     *         "superseded_by": null
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Fact"][];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    remember_v1_agents__agent__facts_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Alice is vegetarian",
                 *       "user": "alice",
                 *       "category": "preference",
                 *       "importance": 4
                 *     }
                 */
                "application/json": components["schemas"]["FactBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 2,
                     *       "agent": "support-bot",
                     *       "content": "Alice is vegetarian",
                     *       "category": "preference",
                     *       "importance": 4,
                     *       "owner": "alice",
                     *       "subject": null,
                     *       "visibility": "private",
                     *       "source_thread": "lisbon-trip",
                     *       "source_from_seq": 12,
                     *       "source_to_seq": 12,
                     *       "metadata": {},
                     *       "created_at": "2026-11-24T09:31:00Z",
                     *       "updated_at": "2026-11-24T09:31:00Z",
                     *       "last_accessed_at": null,
                     *       "access_count": 0,
                     *       "status": "active",
                     *       "valid_from": null,
                     *       "invalid_at": null,
                     *       "superseded_by": null
                     *     }
                     */
                    "application/json": components["schemas"]["Fact"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    forget_all_v1_agents__agent__facts_delete: {
        parameters: {
            query?: {
                user?: string | null;
                subject?: string | null;
                category?: string | null;
                thread?: string | null;
                purge?: boolean;
            };
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "forgotten": 3
                     *     }
                     */
                    "application/json": {
                        [key: string]: number;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    get_fact_v1_agents__agent__facts__fact_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fact_id: number;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "fact": {
                     *         "id": 2,
                     *         "agent": "support-bot",
                     *         "content": "Alice is vegetarian",
                     *         "category": "preference",
                     *         "importance": 4,
                     *         "owner": "alice",
                     *         "subject": null,
                     *         "visibility": "private",
                     *         "source_thread": "lisbon-trip",
                     *         "source_from_seq": 12,
                     *         "source_to_seq": 12,
                     *         "metadata": {},
                     *         "created_at": "2026-11-24T09:31:00Z",
                     *         "updated_at": "2026-11-24T09:31:00Z",
                     *         "last_accessed_at": null,
                     *         "access_count": 0,
                     *         "status": "active",
                     *         "valid_from": null,
                     *         "invalid_at": null,
                     *         "superseded_by": null
                     *       },
                     *       "history": [
                     *         {
                     *           "id": 5,
                     *           "fact_id": 2,
                     *           "action": "update",
                     *           "actor": "alice",
                     *           "old_content": "Alice eats fish",
                     *           "new_content": "Alice is vegetarian",
                     *           "changes": {
                     *             "content": [
                     *               "Alice eats fish",
                     *               "Alice is vegetarian"
                     *             ]
                     *           },
                     *           "at": "2026-11-24T09:31:00Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FactOut"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    forget_v1_agents__agent__facts__fact_id__delete: {
        parameters: {
            query?: {
                user?: string | null;
                purge?: boolean;
            };
            header?: never;
            path: {
                fact_id: number;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 2,
                     *       "agent": "support-bot",
                     *       "content": "Alice is vegetarian",
                     *       "category": "preference",
                     *       "importance": 4,
                     *       "owner": "alice",
                     *       "subject": null,
                     *       "visibility": "private",
                     *       "source_thread": "lisbon-trip",
                     *       "source_from_seq": 12,
                     *       "source_to_seq": 12,
                     *       "metadata": {},
                     *       "created_at": "2026-11-24T09:31:00Z",
                     *       "updated_at": "2026-11-24T09:31:00Z",
                     *       "last_accessed_at": null,
                     *       "access_count": 0,
                     *       "status": "active",
                     *       "valid_from": null,
                     *       "invalid_at": null,
                     *       "superseded_by": null
                     *     }
                     */
                    "application/json": components["schemas"]["Fact"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    update_fact_v1_agents__agent__facts__fact_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fact_id: number;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Alice is vegan",
                 *       "importance": 5
                 *     }
                 */
                "application/json": components["schemas"]["FactPatch"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 2,
                     *       "agent": "support-bot",
                     *       "content": "Alice is vegetarian",
                     *       "category": "preference",
                     *       "importance": 4,
                     *       "owner": "alice",
                     *       "subject": null,
                     *       "visibility": "private",
                     *       "source_thread": "lisbon-trip",
                     *       "source_from_seq": 12,
                     *       "source_to_seq": 12,
                     *       "metadata": {},
                     *       "created_at": "2026-11-24T09:31:00Z",
                     *       "updated_at": "2026-11-24T09:31:00Z",
                     *       "last_accessed_at": null,
                     *       "access_count": 0,
                     *       "status": "active",
                     *       "valid_from": null,
                     *       "invalid_at": null,
                     *       "superseded_by": null
                     *     }
                     */
                    "application/json": components["schemas"]["Fact"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    set_visibility_v1_agents__agent__facts__fact_id__visibility_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fact_id: number;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "visibility": "shared"
                 *     }
                 */
                "application/json": components["schemas"]["VisibilityBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 2,
                     *       "agent": "support-bot",
                     *       "content": "Alice is vegetarian",
                     *       "category": "preference",
                     *       "importance": 4,
                     *       "owner": "alice",
                     *       "subject": null,
                     *       "visibility": "private",
                     *       "source_thread": "lisbon-trip",
                     *       "source_from_seq": 12,
                     *       "source_to_seq": 12,
                     *       "metadata": {},
                     *       "created_at": "2026-11-24T09:31:00Z",
                     *       "updated_at": "2026-11-24T09:31:00Z",
                     *       "last_accessed_at": null,
                     *       "access_count": 0,
                     *       "status": "active",
                     *       "valid_from": null,
                     *       "invalid_at": null,
                     *       "superseded_by": null
                     *     }
                     */
                    "application/json": components["schemas"]["Fact"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    set_visibility_v1_agents__agent__facts__fact_id__visibility_patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fact_id: number;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "visibility": "shared"
                 *     }
                 */
                "application/json": components["schemas"]["VisibilityBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 2,
                     *       "agent": "support-bot",
                     *       "content": "Alice is vegetarian",
                     *       "category": "preference",
                     *       "importance": 4,
                     *       "owner": "alice",
                     *       "subject": null,
                     *       "visibility": "private",
                     *       "source_thread": "lisbon-trip",
                     *       "source_from_seq": 12,
                     *       "source_to_seq": 12,
                     *       "metadata": {},
                     *       "created_at": "2026-11-24T09:31:00Z",
                     *       "updated_at": "2026-11-24T09:31:00Z",
                     *       "last_accessed_at": null,
                     *       "access_count": 0,
                     *       "status": "active",
                     *       "valid_from": null,
                     *       "invalid_at": null,
                     *       "superseded_by": null
                     *     }
                     */
                    "application/json": components["schemas"]["Fact"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    forget_matching_v1_agents__agent__facts_forget_matching_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "Bob likes pizza",
                 *       "user": "bob"
                 *     }
                 */
                "application/json": components["schemas"]["ForgetMatchingBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 2,
                     *         "agent": "support-bot",
                     *         "content": "Alice is vegetarian",
                     *         "category": "preference",
                     *         "importance": 4,
                     *         "owner": "alice",
                     *         "subject": null,
                     *         "visibility": "private",
                     *         "source_thread": "lisbon-trip",
                     *         "source_from_seq": 12,
                     *         "source_to_seq": 12,
                     *         "metadata": {},
                     *         "created_at": "2026-11-24T09:31:00Z",
                     *         "updated_at": "2026-11-24T09:31:00Z",
                     *         "last_accessed_at": null,
                     *         "access_count": 0,
                     *         "status": "active",
                     *         "valid_from": null,
                     *         "invalid_at": null,
                     *         "superseded_by": null
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Fact"][];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    list_memories_v1_agents__agent__memories_get: {
        parameters: {
            query?: {
                limit?: number | null;
            };
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "memories": [
                     *         {
                     *           "id": 9,
                     *           "content": "The Lisbon trip is planned: Alfama apartment, 120 euros a day, no seafood for Alice.",
                     *           "createdAt": "2026-11-24T09:31:00Z",
                     *           "updatedAt": "2026-11-24T09:31:00Z",
                     *           "sourceConversationId": "lisbon-trip",
                     *           "metadata": {},
                     *           "summary": {
                     *             "id": 9,
                     *             "agent": "support-bot",
                     *             "thread": "lisbon-trip",
                     *             "kind": "memory",
                     *             "content": "The Lisbon trip is planned.",
                     *             "from_seq": 1,
                     *             "to_seq": 20,
                     *             "owner": null,
                     *             "method": "extractive",
                     *             "metadata": {},
                     *             "created_at": "2026-11-24T09:31:00Z"
                     *           }
                     *         }
                     *       ],
                     *       "cap": 10
                     *     }
                     */
                    "application/json": components["schemas"]["MemoriesOut"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    purge_memories_v1_agents__agent__memories_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "deletedCount": 8
                     *     }
                     */
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    delete_memory_v1_agents__agent__memories__memory_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                memory_id: number;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "deletedCount": 8
                     *     }
                     */
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    profile_v1_agents__agent__profiles__user__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user (names: docs/service.md). */
                user: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user": "alice",
                     *       "profile": "Alice is vegetarian and loves hiking."
                     *     }
                     */
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    digest_v1_agents__agent__digests__user__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user (names: docs/service.md). */
                user: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user": "alice",
                     *       "digest": "Today: asked about dinner places."
                     *     }
                     */
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    jobs_v1_agents__agent__jobs_get: {
        parameters: {
            query?: {
                status?: string | null;
                kind?: string | null;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 31,
                     *         "agent": "support-bot",
                     *         "kind": "summarize",
                     *         "payload": {
                     *           "thread": "lisbon-trip"
                     *         },
                     *         "status": "dead",
                     *         "attempts": 5,
                     *         "max_attempts": 5,
                     *         "run_after": "2026-11-24T09:31:00Z",
                     *         "lease_owner": null,
                     *         "lease_expires_at": null,
                     *         "last_error": "ProviderError: the LLM answered 503",
                     *         "created_at": "2026-11-24T09:31:00Z",
                     *         "updated_at": "2026-11-24T09:31:00Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Job"][];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    retry_job_v1_agents__agent__jobs__job_id__retry_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: number;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 31,
                     *       "agent": "support-bot",
                     *       "kind": "summarize",
                     *       "payload": {
                     *         "thread": "lisbon-trip"
                     *       },
                     *       "status": "dead",
                     *       "attempts": 5,
                     *       "max_attempts": 5,
                     *       "run_after": "2026-11-24T09:31:00Z",
                     *       "lease_owner": null,
                     *       "lease_expires_at": null,
                     *       "last_error": "ProviderError: the LLM answered 503",
                     *       "created_at": "2026-11-24T09:31:00Z",
                     *       "updated_at": "2026-11-24T09:31:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    usage_v1_agents__agent__usage_get: {
        parameters: {
            query?: {
                since?: string | null;
            };
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agent": "support-bot",
                     *       "since": null,
                     *       "usage": [
                     *         {
                     *           "agent": "support-bot",
                     *           "operation": "summarize",
                     *           "calls": 4,
                     *           "failures": 0,
                     *           "prompt_tokens": 3100,
                     *           "completion_tokens": 420,
                     *           "latency_s": 3.2,
                     *           "p95_latency_s": 1.1
                     *         }
                     *       ],
                     *       "budget": {
                     *         "agent": "support-bot",
                     *         "limit": 0,
                     *         "spent": 3520,
                     *         "window_s": 86400,
                     *         "reserve": 0.1,
                     *         "low": false,
                     *         "resume_at": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    usage_by_day_v1_agents__agent__usage_days_get: {
        parameters: {
            query?: {
                days?: number;
            };
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "day": "2026-11-24",
                     *         "calls": 12,
                     *         "tokens": 5400
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["UsageDay"][];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    status_v1_agents__agent__status_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "backend": "sqlite",
                     *       "location": "",
                     *       "schema_version": 15,
                     *       "counts": {
                     *         "threads": 3,
                     *         "messages": 51,
                     *         "facts": 6
                     *       },
                     *       "meta": {
                     *         "embedding_model": "minilm"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["StoreStatus"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    export_v1_agents__agent__export_get: {
        parameters: {
            query?: {
                thread?: string[] | null;
            };
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": unknown;
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    import__v1_agents__agent__import_post: {
        parameters: {
            query?: {
                on_conflict?: string;
            };
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "threads": 3,
                     *       "messages": 51,
                     *       "facts": 6,
                     *       "summaries": 2
                     *     }
                     */
                    "application/json": {
                        [key: string]: number;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    user_record_v1_agents__agent__users__user__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user (names: docs/service.md). */
                user: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user": "alice",
                     *       "persona": "brief and friendly",
                     *       "custom_context": "I'm vegetarian",
                     *       "interactions": 14,
                     *       "last_interaction": "2026-11-24T09:31:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["UserRecord"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    set_user_v1_agents__agent__users__user__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user (names: docs/service.md). */
                user: string;
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "persona": "brief and friendly"
                 *     }
                 */
                "application/json": components["schemas"]["UserPatch"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user": "alice",
                     *       "persona": "brief and friendly",
                     *       "custom_context": "I'm vegetarian",
                     *       "interactions": 14,
                     *       "last_interaction": "2026-11-24T09:31:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["UserRecord"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    count_tokens_v1_agents__agent__tokens_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "How many tokens is this?"
                 *     }
                 */
                "application/json": components["schemas"]["TextBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tokens": 7
                     *     }
                     */
                    "application/json": {
                        [key: string]: number;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    flush_v1_agents__agent__flush_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "timeout": 5
                 *     }
                 */
                "application/json": components["schemas"]["FlushBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "flushed": true
                     *     }
                     */
                    "application/json": {
                        [key: string]: boolean;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    delete_agent_v1_agents__agent__delete: {
        parameters: {
            query?: {
                purge?: boolean;
            };
            header?: never;
            path: {
                /** @description The agent (names: docs/service.md). */
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "threads": 3,
                     *       "messages": 51,
                     *       "facts": 6,
                     *       "summaries": 2,
                     *       "memories": 0
                     *     }
                     */
                    "application/json": {
                        [key: string]: number;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    whoami_v1_whoami_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "scope": "agent",
                     *       "agent": "support-bot",
                     *       "user": null
                     *     }
                     */
                    "application/json": {
                        [key: string]: string | null;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    agents_v1_agents_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       "support-bot",
                     *       "family-memorial"
                     *     ]
                     */
                    "application/json": string[];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    list_keys_v1_keys_get: {
        parameters: {
            query?: {
                include_revoked?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 3,
                     *         "prefix": "ml_Xk2p9aQ",
                     *         "scope": "user",
                     *         "agent": "support-bot",
                     *         "user": "alice",
                     *         "label": "alice's phone",
                     *         "created_at": "2026-11-24T09:31:00Z",
                     *         "expires_at": null,
                     *         "revoked_at": null
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ApiKey"][];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    create_key_v1_keys_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "scope": "user",
                 *       "agent": "support-bot",
                 *       "user": "alice",
                 *       "label": "alice's phone"
                 *     }
                 */
                "application/json": components["schemas"]["KeyBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "record": {
                     *         "id": 3,
                     *         "prefix": "ml_Xk2p9aQ",
                     *         "scope": "user",
                     *         "agent": "support-bot",
                     *         "user": "alice",
                     *         "label": "alice's phone",
                     *         "created_at": "2026-11-24T09:31:00Z",
                     *         "expires_at": null,
                     *         "revoked_at": null
                     *       },
                     *       "key": "ml_Xk2p9aQ…(shown once)"
                     *     }
                     */
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revoke_key_v1_keys__key_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 3,
                     *       "prefix": "ml_Xk2p9aQ",
                     *       "scope": "user",
                     *       "agent": "support-bot",
                     *       "user": "alice",
                     *       "label": "alice's phone",
                     *       "created_at": "2026-11-24T09:31:00Z",
                     *       "expires_at": null,
                     *       "revoked_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    all_usage_v1_usage_get: {
        parameters: {
            query?: {
                since?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "since": null,
                     *       "usage": [
                     *         {
                     *           "agent": "support-bot",
                     *           "operation": "summarize",
                     *           "calls": 4,
                     *           "failures": 0,
                     *           "prompt_tokens": 3100,
                     *           "completion_tokens": 420,
                     *           "latency_s": 3.2,
                     *           "p95_latency_s": 1.1
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    db_status_v1_db_status_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "backend": "sqlite",
                     *       "location": "",
                     *       "schema_version": 15,
                     *       "counts": {
                     *         "threads": 3,
                     *         "messages": 51,
                     *         "facts": 6
                     *       },
                     *       "meta": {
                     *         "embedding_model": "minilm"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["StoreStatus"];
                };
            };
            /** @description Malformed JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:malformed-json",
                     *       "title": "Malformed JSON",
                     *       "status": 400,
                     *       "detail": "Malformed JSON"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unauthenticated",
                     *       "title": "Missing, unknown, revoked or expired API key",
                     *       "status": 401,
                     *       "detail": "Missing, unknown, revoked or expired API key"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:forbidden",
                     *       "title": "The key may not do this",
                     *       "status": 403,
                     *       "detail": "The key may not do this"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Not found"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with what is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:conflict",
                     *       "title": "Conflict with what is stored",
                     *       "status": 409,
                     *       "detail": "Conflict with what is stored"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:body-too-large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "Request body too large"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (JSON Lines for an import) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:unsupported-media-type",
                     *       "title": "The body is not JSON (JSON Lines for an import)",
                     *       "status": 415,
                     *       "detail": "The body is not JSON (JSON Lines for an import)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:invalid-input",
                     *       "title": "Invalid input",
                     *       "status": 422,
                     *       "detail": "Invalid input"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:rate-limited",
                     *       "title": "Rate limit exceeded (see Retry-After)",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded (see Retry-After)"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description LLM or embedding provider failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:provider-error",
                     *       "title": "LLM or embedding provider failed",
                     *       "status": 502,
                     *       "detail": "LLM or embedding provider failed"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Storage unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:memlane:problem:storage-unavailable",
                     *       "title": "Storage unavailable",
                     *       "status": 503,
                     *       "detail": "Storage unavailable"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    healthz_healthz_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": {
                        [key: string]: string;
                    };
                };
            };
        };
    };
    readyz_readyz_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "schema_version": 15,
                     *       "backend": "sqlite"
                     *     }
                     */
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not ready */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    metrics_metrics_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": unknown;
                };
            };
        };
    };
}
