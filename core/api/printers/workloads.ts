/** Printers for pod templates and the controllers that own pods (core and apps groups). */
import type { KubeObject } from "../types.ts";
import {
  containerCells,
  type ContainerLike,
  formatLabels,
  formatLabelSelector,
  type LabelSelectorObject,
  selectorText,
} from "./_format.ts";
import { AGE_COLUMN, column, CONTAINERS_COLUMN, definePrinter, IMAGES_COLUMN, NAME_COLUMN, wideColumn } from "./_printer.ts";
import { ageOf } from "./duration.ts";

interface PodTemplateSpec {
  metadata?: { labels?: Record<string, string> };
  spec?: { containers?: ContainerLike[]; nodeSelector?: Record<string, string> };
}

interface Controller<Selector> extends KubeObject {
  spec?: { replicas?: number; selector?: Selector; template?: PodTemplateSpec };
  status?: Record<string, number | undefined>;
}

const DAEMON_SET_COUNTS = ["desiredNumberScheduled", "currentNumberScheduled", "numberReady", "updatedNumberScheduled", "numberAvailable"];
const SELECTOR_COLUMN = wideColumn("Selector", "Label selector of the pods this controller manages");
const integer = (name: string, description: string) => column(name, description, { type: "integer" });
// apps/v1 and core/v1 default spec.replicas to 1, which kube's printer always sees.
const desired = (obj: Controller<unknown>) => obj.spec?.replicas ?? 1;
const count = (obj: Controller<unknown>, field: string) => obj.status?.[field] ?? 0;
const templateContainers = (obj: Controller<unknown>) => containerCells(obj.spec?.template?.spec?.containers);

export const podTemplatePrinter = definePrinter<KubeObject & { template?: PodTemplateSpec }>(
  [
    NAME_COLUMN,
    column("Containers", "Names of the containers in the template"),
    column("Images", "Images of the containers in the template"),
    column("Pod Labels", "Labels of the pod template"),
  ],
  (obj) => [obj.metadata.name, ...containerCells(obj.template?.spec?.containers), formatLabels(obj.template?.metadata?.labels)],
);

const replicaColumns = [
  NAME_COLUMN,
  integer("Desired", "Desired number of replicas"),
  integer("Current", "Observed number of replicas"),
  integer("Ready", "Replicas that are ready"),
  AGE_COLUMN,
  CONTAINERS_COLUMN,
  IMAGES_COLUMN,
  SELECTOR_COLUMN,
];

function replicaCells(obj: Controller<unknown>, now: Date): unknown[] {
  const { name } = obj.metadata;
  return [name, desired(obj), count(obj, "replicas"), count(obj, "readyReplicas"), ageOf(obj, now), ...templateContainers(obj)];
}

export const replicationControllerPrinter = definePrinter<Controller<Record<string, string>>>(
  replicaColumns,
  (obj, now) => [...replicaCells(obj, now), formatLabels(obj.spec?.selector)],
);

export const replicaSetPrinter = definePrinter<Controller<LabelSelectorObject>>(
  replicaColumns,
  (obj, now) => [...replicaCells(obj, now), formatLabelSelector(obj.spec?.selector)],
);

export const deploymentPrinter = definePrinter<Controller<LabelSelectorObject>>(
  [
    NAME_COLUMN,
    column("Ready", "Ready replicas out of desired"),
    column("Up-to-date", "Replicas running the latest template"),
    column("Available", "Replicas available to serve"),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    SELECTOR_COLUMN,
  ],
  (obj, now) => [
    obj.metadata.name,
    `${count(obj, "readyReplicas")}/${desired(obj)}`,
    count(obj, "updatedReplicas"),
    count(obj, "availableReplicas"),
    ageOf(obj, now),
    ...templateContainers(obj),
    selectorText(obj.spec?.selector) ?? "<invalid>",
  ],
);

export const statefulSetPrinter = definePrinter<Controller<LabelSelectorObject>>(
  [NAME_COLUMN, column("Ready", "Ready replicas out of desired"), AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN],
  (obj, now) => [obj.metadata.name, `${count(obj, "readyReplicas")}/${desired(obj)}`, ageOf(obj, now), ...templateContainers(obj)],
);

export const daemonSetPrinter = definePrinter<Controller<LabelSelectorObject>>(
  [
    NAME_COLUMN,
    integer("Desired", "Nodes that should run the daemon pod"),
    integer("Current", "Nodes running the daemon pod"),
    integer("Ready", "Nodes with a ready daemon pod"),
    integer("Up-to-date", "Nodes running the latest template"),
    integer("Available", "Nodes with an available daemon pod"),
    column("Node Selector", "Node selector of the pod template"),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    SELECTOR_COLUMN,
  ],
  (obj, now) => [
    obj.metadata.name,
    ...DAEMON_SET_COUNTS.map((field) => count(obj, field)),
    formatLabels(obj.spec?.template?.spec?.nodeSelector),
    ageOf(obj, now),
    ...templateContainers(obj),
    formatLabelSelector(obj.spec?.selector),
  ],
);

/** GroupKind.String() lower-cased: "statefulset.apps", or just "pod" for the core group. */
function groupKindText(apiVersion: string, kind: string): string {
  const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
  return (group ? `${kind}.${group}` : kind).toLowerCase();
}

export const controllerRevisionPrinter = definePrinter<KubeObject & { revision?: number }>(
  [NAME_COLUMN, column("Controller", "The object that owns this revision"), column("Revision", "Revision number"), AGE_COLUMN],
  (obj, now) => {
    const owner = obj.metadata.ownerReferences?.find((ref) => ref.controller === true);
    const controller = owner ? `${groupKindText(owner.apiVersion, owner.kind)}/${owner.name}` : "<none>";
    return [obj.metadata.name, controller, obj.revision ?? 0, ageOf(obj, now)];
  },
);
