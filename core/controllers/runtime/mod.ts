/** The controller runtime: the contract controllers implement and the pieces the server runs them with. */
export { controllerActor } from "./actor.ts";
export { type EventNote, newEvent } from "./events.ts";
export { EventSpamFilter } from "./event-spam-filter.ts";
export { EventRecorder } from "./event-recorder.ts";
export { controllerUser, KUBE_CONTROLLER_MANAGER_USER } from "./identity.ts";
export { type Controller, type ControllerContext, type ControllerSettings, enqueueChanges } from "./controller.ts";
export { DISABLED_BY_DEFAULT, isControllerEnabled, KNOWN_CONTROLLERS, validateControllerList } from "./controller-names.ts";
export { Informer, type InformerEvent, type InformerHandler, keyOf, splitKey } from "./informer.ts";
export { type Elector, type LeaderElectionOptions, LeaderElector, microTime } from "./leader-election.ts";
export { type LeaderLock, LOCK_HELD_LEASE_DURATION_SECONDS, LockLeaderElector } from "./lock-leader-election.ts";
export { ControllerManager, type ManagerOptions } from "./manager.ts";
export { onRenewalTick } from "./renewal-tick.ts";
export { type Reconcile, WorkQueue, type WorkQueueOptions } from "./work-queue.ts";
