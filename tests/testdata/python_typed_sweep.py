"""Every typed method of the official Python client (Debian's python3-kubernetes 22.x) for one object of each kind.

Usage: /usr/bin/python3 python_typed_sweep.py KUBECONFIG NAMESPACE
For each kind: create, read, read_status, read_scale, list, list_for_all_namespaces, a status write where a
controller would write one, patch (main, status, scale), replace (main, scale), then delete and delete_collection,
each through the `*Api` class of the kind's group version, found by name. The client deserializes every answer
into its typed models and raises on a required field left null (`must not be None`), so a call that returns
proves the answer's shape. Prints one JSON document: {"calls": N, "failures": [[method, outcome], ...]}.
"""
import base64
import copy
import json
import re
import subprocess
import sys
import time

from kubernetes import client, config
from kubernetes.client.rest import ApiException

NOW = "2026-01-01T00:00:00Z"
# MicroTime with a non-zero fraction: the client writes a datetime back with isoformat(), which drops a zero
# fraction, and kube's MicroTime.UnmarshalJSON (RFC3339Micro) refuses that; a client bug, on kube-apiserver too.
NOW_MICRO = "2026-01-01T00:00:00.123456Z"
LABELS = {"app": "sweep"}
POD_SPEC = {"containers": [{"name": "c", "image": "nginx:1.23", "ports": [{"containerPort": 80}]}]}
TEMPLATE = {"metadata": {"labels": LABELS}, "spec": POD_SPEC}
JOB_TEMPLATE = {"spec": {"template": {"spec": dict(POD_SPEC, restartPolicy="Never")}}}
SELECTOR = {"matchLabels": LABELS}
RULES = [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]
WEBHOOKS = [{"name": "w.example.com", "clientConfig": {"url": "https://example.com/w"}, "sideEffects": "None", "admissionReviewVersions": ["v1"],
             "rules": [{"apiGroups": ["example.com"], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["things"]}]}]


def kinds(namespace, csr):
    """(apiVersion, kind, namespaced, body fields, status a controller would write or None)."""
    return [
        ("v1", "ConfigMap", True, {"data": {"k": "v"}}, None),
        ("v1", "Secret", True, {"stringData": {"k": "v"}}, None),
        ("v1", "ServiceAccount", True, {}, None),
        ("v1", "Pod", True, {"spec": POD_SPEC}, {"phase": "Running", "podIP": "10.0.0.5", "startTime": NOW,
                                                  "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": NOW}],
                                                  "containerStatuses": [{"name": "c", "ready": True, "restartCount": 0, "image": "nginx:1.23",
                                                                         "imageID": "i", "state": {"running": {"startedAt": NOW}}}]}),
        ("v1", "Service", True, {"spec": {"selector": LABELS, "ports": [{"port": 80}]}}, {"loadBalancer": {"ingress": [{"ip": "192.0.2.1"}]}}),
        ("v1", "Endpoints", True, {"subsets": [{"addresses": [{"ip": "10.0.0.5"}], "ports": [{"port": 80}]}]}, None),
        ("v1", "Event", True, {"involvedObject": {"kind": "Pod", "name": "p", "namespace": namespace}, "reason": "R", "message": "m",
                               "type": "Normal", "firstTimestamp": NOW, "lastTimestamp": NOW, "count": 1, "action": "A",
                               "eventTime": NOW_MICRO, "reportingComponent": "sweep", "reportingInstance": "i"}, None),
        ("v1", "LimitRange", True, {"spec": {"limits": [{"type": "Container", "default": {"cpu": "200m"}}]}}, None),
        ("v1", "ResourceQuota", True, {"spec": {"hard": {"pods": "10"}}}, {"hard": {"pods": "10"}, "used": {"pods": "1"}}),
        ("v1", "PersistentVolume", False, {"spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/tmp/pv"}}},
         {"phase": "Available"}),
        ("v1", "PersistentVolumeClaim", True, {"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}},
         {"phase": "Bound", "capacity": {"storage": "1Gi"}}),
        ("v1", "PodTemplate", True, {"template": TEMPLATE}, None),
        ("v1", "ReplicationController", True, {"spec": {"replicas": 1, "selector": LABELS, "template": TEMPLATE}}, {"replicas": 1, "readyReplicas": 1}),
        ("v1", "Node", False, {"spec": {"podCIDR": "10.0.0.0/24"}},
         {"capacity": {"cpu": "4", "pods": "110"}, "allocatable": {"cpu": "4", "pods": "110"}, "addresses": [{"type": "InternalIP", "address": "10.1.1.1"}],
          "conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": NOW, "lastTransitionTime": NOW, "reason": "KubeletReady"}]}),
        ("v1", "Namespace", False, {}, None),
        ("apps/v1", "ControllerRevision", True, {"revision": 1, "data": {"spec": {"template": TEMPLATE}}}, None),
        ("apps/v1", "Deployment", True, {"spec": {"replicas": 1, "selector": SELECTOR, "template": TEMPLATE}}, {"replicas": 1, "readyReplicas": 1}),
        ("apps/v1", "ReplicaSet", True, {"spec": {"replicas": 1, "selector": SELECTOR, "template": TEMPLATE}}, {"replicas": 1}),
        # The StatefulSet controller writes collisionCount (0 without collisions) with its first status, and a status
        # write that drops it is a decrement kube refuses (ValidateStatefulSetStatusUpdate, IsDecremented).
        ("apps/v1", "StatefulSet", True, {"spec": {"replicas": 1, "serviceName": "s", "selector": SELECTOR, "template": TEMPLATE}},
         {"replicas": 1, "collisionCount": 0}),
        ("apps/v1", "DaemonSet", True, {"spec": {"selector": SELECTOR, "template": TEMPLATE}}, {"numberReady": 1}),
        ("batch/v1", "Job", True, {"spec": {"template": {"spec": dict(POD_SPEC, restartPolicy="Never")}}}, {"active": 1, "startTime": NOW}),
        ("batch/v1", "CronJob", True, {"spec": {"schedule": "*/5 * * * *", "jobTemplate": JOB_TEMPLATE}}, {"lastScheduleTime": NOW}),
        ("autoscaling/v1", "HorizontalPodAutoscaler", True,
         {"spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}, "maxReplicas": 3}}, {"desiredReplicas": 1}),
        ("policy/v1", "PodDisruptionBudget", True, {"spec": {"minAvailable": 1, "selector": SELECTOR}}, {"observedGeneration": 1}),
        ("coordination.k8s.io/v1", "Lease", True, {"spec": {"holderIdentity": "me", "leaseDurationSeconds": 15}}, None),
        ("discovery.k8s.io/v1", "EndpointSlice", True, {"addressType": "IPv4", "endpoints": [{"addresses": ["10.0.0.5"]}], "ports": [{"port": 80}]}, None),
        ("events.k8s.io/v1", "Event", True, {"eventTime": NOW_MICRO, "reportingController": "sweep", "reportingInstance": "i",
                                             "action": "A", "reason": "R", "type": "Normal", "regarding": {"kind": "Pod", "name": "p", "namespace": namespace}}, None),
        ("networking.k8s.io/v1", "Ingress", True, {"spec": {"defaultBackend": {"service": {"name": "s", "port": {"number": 80}}}}},
         {"loadBalancer": {"ingress": [{"ip": "192.0.2.1"}]}}),
        ("networking.k8s.io/v1", "IngressClass", False, {"spec": {"controller": "example.com/ingress"}}, None),
        ("networking.k8s.io/v1", "NetworkPolicy", True, {"spec": {"podSelector": {}}}, None),
        ("node.k8s.io/v1", "RuntimeClass", False, {"handler": "runc"}, None),
        ("rbac.authorization.k8s.io/v1", "Role", True, {"rules": RULES}, None),
        ("rbac.authorization.k8s.io/v1", "ClusterRole", False, {"rules": RULES}, None),
        ("rbac.authorization.k8s.io/v1", "RoleBinding", True, {"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "r"},
                                                               "subjects": [{"kind": "User", "name": "u", "apiGroup": "rbac.authorization.k8s.io"}]}, None),
        ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", False, {"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "r"},
                                                                       "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": namespace}]}, None),
        ("scheduling.k8s.io/v1", "PriorityClass", False, {"value": 1000}, None),
        ("storage.k8s.io/v1", "StorageClass", False, {"provisioner": "example.com/p"}, None),
        ("storage.k8s.io/v1", "CSIDriver", False, {"spec": {}}, None),
        ("storage.k8s.io/v1", "CSINode", False, {"spec": {"drivers": [{"name": "d.example.com", "nodeID": "n"}]}}, None),
        ("storage.k8s.io/v1", "VolumeAttachment", False, {"spec": {"attacher": "d.example.com", "nodeName": "n", "source": {"persistentVolumeName": "pv"}}},
         {"attached": True}),
        ("certificates.k8s.io/v1", "CertificateSigningRequest", False, {"spec": {"request": csr, "signerName": "example.com/s", "usages": ["client auth"]}}, None),
        ("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", False, {"webhooks": WEBHOOKS}, None),
        ("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", False, {"webhooks": WEBHOOKS}, None),
    ]


def api_class(api_version):
    """CoreV1Api for v1; `rbac.authorization.k8s.io/v1` is RbacAuthorizationV1Api."""
    if api_version == "v1":
        return client.CoreV1Api
    group, version = api_version.split("/")
    words = group.replace(".k8s.io", "").split(".")
    return getattr(client, "".join(w[:1].upper() + w[1:] for w in words) + version[:1].upper() + version[1:] + "Api")


def snake(kind):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", kind).lower().replace("c_s_i", "csi")


def object_name(namespace, cls, kind):
    """One name per group version and kind (events.k8s.io Events and core Events are one resource)."""
    return f"{namespace}-other" if kind == "Namespace" else f"sweep-{cls.__name__[:-3].lower()}-{snake(kind).replace('_', '-')}"


def main():
    kubeconfig, namespace = sys.argv[1:3]
    config.load_kube_config(config_file=kubeconfig)
    api = client.ApiClient()
    request = subprocess.run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                              "-keyout", "/dev/null", "-subj", "/CN=sweep"], capture_output=True, check=True).stdout
    calls, failures = [], []
    # The pod's create needs the namespace's default ServiceAccount, which a controller makes.
    for _ in range(200):
        try:
            client.CoreV1Api(api).read_namespaced_service_account("default", namespace)
            break
        except ApiException:
            time.sleep(0.05)

    def call(method, fn, *args):
        calls.append(method)
        try:
            return fn(*args)
        except ApiException as error:
            failures.append([method, f"HTTP {error.status}: {json.loads(error.body).get('message') if error.body else ''}"])
        except (ValueError, TypeError, AttributeError) as error:
            failures.append([method, f"{type(error).__name__}: {error}"])
        return None

    everything = kinds(namespace, base64.b64encode(request).decode())
    for api_version, kind, namespaced, fields, status in everything:
        cls = api_class(api_version)
        api_obj = cls(api)
        name = object_name(namespace, cls, kind)
        scope = "namespaced_" if namespaced else ""
        where = [namespace] if namespaced else []

        def method(verb, suffix=""):
            found = getattr(api_obj, f"{verb}_{scope}{snake(kind)}{suffix}", None)
            return found, f"{cls.__name__}.{verb}_{scope}{snake(kind)}{suffix}"

        def with_retry(fn):
            """A read-modify-write that meets a controller's write in between tries again, as clients do on 409."""
            def attempt(*args):
                for _ in range(5):
                    try:
                        return fn(*args)
                    except ApiException as error:
                        if error.status != 409:
                            raise
                return fn(*args)
            return attempt

        body = dict(copy.deepcopy(fields), apiVersion=api_version, kind=kind, metadata={"name": name, "labels": LABELS})
        read = getattr(api_obj, f"read_{scope}{snake(kind)}")
        call(*reversed(method("create")), *where, body)
        for suffix in ("", "_status", "_scale"):
            fn, label = method("read", suffix)
            if fn:
                call(label, fn, name, *where)
        # The client's EventsV1Event model refuses a null eventTime, which kube writes for the core/v1 Events controllers
        # record (client-go's legacy recorder sets no eventTime): a client bug kube-apiserver meets too. Those lists
        # are narrowed to the sweep's own Events.
        narrowed = {"label_selector": "app=sweep"} if cls.__name__ == "EventsV1Api" else {}
        fn, label = method("list")
        call(label, lambda: fn(*where, **narrowed))
        all_namespaces = getattr(api_obj, f"list_{snake(kind)}_for_all_namespaces", None)
        if namespaced and all_namespaces:
            call(f"{cls.__name__}.list_{snake(kind)}_for_all_namespaces", lambda: all_namespaces(**narrowed))
        fn, label = method("replace", "_status")
        if fn:
            def write_status(fn=fn, read=read, name=name, status=status):
                current = read(name, *where)
                if status is not None:
                    current = dict(api.sanitize_for_serialization(current), status=status)
                return fn(name, *where, current)
            call(label, with_retry(write_status))
        for suffix in ("", "_status", "_scale"):
            fn, label = method("patch", suffix)
            if fn:
                patch = {"spec": {"replicas": 1}} if suffix == "_scale" else {"metadata": {"labels": {"patched": "yes"}}}
                call(label, fn, name, *where, patch)
        fn, label = method("replace")
        if fn:
            def replace(fn=fn, read=read, name=name):
                current = read(name, *where)
                current.metadata.labels = dict(current.metadata.labels or {}, replaced="yes")
                return fn(name, *where, current)
            call(label, with_retry(replace))
        fn, label = method("replace", "_scale")
        if fn:
            def replace_scale(fn=fn, name=name):
                current = getattr(api_obj, f"read_{scope}{snake(kind)}_scale")(name, *where)
                current.spec.replicas = 2
                return fn(name, *where, current)
            call(label, with_retry(replace_scale))
    # Every object's own delete first: core and events.k8s.io Events are one collection, which either's
    # delete_collection empties.
    for api_version, kind, namespaced, _, _ in everything:
        api_obj = api_class(api_version)(api)
        scope = "namespaced_" if namespaced else ""
        where = [namespace] if namespaced else []
        name = object_name(namespace, type(api_obj), kind)
        call(f"{type(api_obj).__name__}.delete_{scope}{snake(kind)}", getattr(api_obj, f"delete_{scope}{snake(kind)}"), name, *where)
    for api_version, kind, namespaced, _, _ in everything:
        api_obj = api_class(api_version)(api)
        scope = "namespaced_" if namespaced else ""
        where = [namespace] if namespaced else []
        collection = getattr(api_obj, f"delete_collection_{scope}{snake(kind)}", None)
        if collection:
            call(f"{type(api_obj).__name__}.delete_collection_{scope}{snake(kind)}", lambda: collection(*where, label_selector="app=sweep"))
    print(json.dumps({"calls": len(calls), "failures": failures}))


if __name__ == "__main__":
    main()
