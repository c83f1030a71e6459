/**
 * The preset dictionary of stored-value codec 1 (stored-value.ts): the bytes raw deflate may refer back to before a
 * value's first byte, so what every Lease repeats (field names, the namespaces, the managers' managedFields entries,
 * label keys) costs a back-reference instead of its letters. A ~760 B node Lease deflates to ~125 B with it and ~375 B
 * without.
 *
 * Made from the Leases kubun stores (read from kubun.db of a server started with `--simulated-nodes 3`), in the
 * shapes kube's writers give them, with names, uids and holders emptied and times zeroed: a leader-election Lease
 * (client-go's LeaderElector fills acquireTime and leaseTransitions; kube-controller-manager, kube-scheduler,
 * kubun-controller-manager), the apiserver identity Lease (labels IdentityLeaseComponentLabelKey
 * `apiserver.kubernetes.io/identity` and `kubernetes.io/hostname`, manager kube-apiserver, 3600 s), and last, where
 * deflate's back-references are shortest, a kubelet node Lease (kube-node-lease, owned by its Node, 40 s).
 *
 * Stored values refer to these exact bytes: never change them once released. A better dictionary is a new constant
 * with a new codec tag, and this one stays for the values already written with it.
 */
export const LEASE_DICTIONARY_V1 = [
  '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"kube-controller-manager","namespace":"kube-system","uid":"","creationTimestamp":"2026-01-01T00:00:00Z","managedFields":[{"manager":"kube-scheduler","operation":"Update","apiVersion":"coordination.k8s.io/v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:acquireTime":{},"f:holderIdentity":{},"f:leaseDurationSeconds":{},"f:leaseTransitions":{},"f:renewTime":{}}}}]},"spec":{"holderIdentity":"_","leaseDurationSeconds":15,"acquireTime":"2026-01-01T00:00:00.000000Z","renewTime":"2026-01-01T00:00:00.000000Z","leaseTransitions":0}}',
  '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"kube-apiserver-","namespace":"kube-system","labels":{"apiserver.kubernetes.io/identity":"kube-apiserver","kubernetes.io/hostname":""},"uid":"","creationTimestamp":"2026-01-01T00:00:00Z","managedFields":[{"manager":"kube-apiserver","operation":"Update","apiVersion":"coordination.k8s.io/v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:apiserver.kubernetes.io/identity":{},"f:kubernetes.io/hostname":{}}},"f:spec":{"f:holderIdentity":{},"f:leaseDurationSeconds":{},"f:renewTime":{}}}}]},"spec":{"holderIdentity":"kube-apiserver-_","leaseDurationSeconds":3600,"renewTime":"2026-01-01T00:00:00.000000Z"}}',
  '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"","namespace":"kube-node-lease","ownerReferences":[{"apiVersion":"v1","kind":"Node","name":"","uid":""}],"uid":"","creationTimestamp":"2026-01-01T00:00:00Z","managedFields":[{"manager":"kubelet","operation":"Update","apiVersion":"coordination.k8s.io/v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:ownerReferences":{".":{},"k:{\\"uid\\":\\"\\"}":{}}},"f:spec":{"f:holderIdentity":{},"f:leaseDurationSeconds":{},"f:renewTime":{}}}}]},"spec":{"holderIdentity":"","leaseDurationSeconds":40,"renewTime":"2026-01-01T00:00:00.000000Z"}}',
].join("");
