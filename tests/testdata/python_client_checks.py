"""Checks run with the official Python client (Debian's python3-kubernetes 22.x) against a kubun server.

Usage: /usr/bin/python3 python_client_checks.py KUBECONFIG NAMESPACE CHECK
Prints one JSON document with what the check observed; tests/client-python.test.ts asserts on it.
The client sends Python's spelling of booleans (watch=True, force=True, orphanDependents=True).
"""
import ast
import json
import sys
import threading
import time
import uuid

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException
from kubernetes.dynamic import DynamicClient
from kubernetes.dynamic.exceptions import ConflictError


def config_map(name, namespace, data=None, owner=None):
    metadata = {"name": name, "namespace": namespace}
    if owner is not None:
        metadata["ownerReferences"] = [{"apiVersion": "v1", "kind": "ConfigMap", "name": owner.metadata.name, "uid": owner.metadata.uid}]
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, "data": data or {"key": "value"}}


def poll(fetch, done, attempts=200):
    for _ in range(attempts):
        value = fetch()
        if done(value):
            return value
        time.sleep(0.05)
    raise RuntimeError("state never reached")


def check_version(api, namespace):
    info = client.VersionApi(api).get_code()
    return {"gitVersion": info.git_version, "major": info.major, "minor": info.minor}


def check_discovery(api, namespace):
    core_versions = client.CoreApi(api).get_api_versions()
    groups = client.ApisApi(api).get_api_versions()
    apps = client.AppsApi(api).get_api_group()
    apps_resources = client.AppsV1Api(api).get_api_resources()
    core_resources = client.CoreV1Api(api).get_api_resources()
    return {
        "coreVersions": core_versions.versions,
        "hasApps": any(group.name == "apps" for group in groups.groups),
        "appsPreferred": apps.preferred_version.group_version,
        "appsHasDeployments": any(r.name == "deployments" for r in apps_resources.resources),
        "coreHasConfigMaps": any(r.name == "configmaps" for r in core_resources.resources),
    }


def check_issuer_discovery(api, namespace):
    """WellKnownApi and OpenidApi ask for /.well-known/openid-configuration/ and /openid/v1/jwks/ (trailing slashes).
    Their response type is `str`, which the client makes with str() of the decoded JSON: a Python literal."""
    configuration = ast.literal_eval(client.WellKnownApi(api).get_service_account_issuer_open_id_configuration())
    keys = ast.literal_eval(client.OpenidApi(api).get_service_account_issuer_open_id_keyset())
    return {"issuer": configuration["issuer"], "keyUse": sorted({key["use"] for key in keys["keys"]})}


def check_typed_watch(api, namespace):
    core = client.CoreV1Api(api)
    core.create_namespaced_config_map(namespace, config_map("before-watch", namespace))
    seen = []
    stream = watch.Watch()
    for event in stream.stream(core.list_namespaced_config_map, namespace, timeout_seconds=20):
        seen.append([event["type"], event["object"].metadata.name])
        if event["object"].metadata.name == "before-watch":
            core.create_namespaced_config_map(namespace, config_map("during-watch", namespace))
        if event["object"].metadata.name == "during-watch":
            stream.stop()
    return {"events": seen, "objectType": type(event["object"]).__name__}


def check_dynamic_apply(api, namespace):
    dynamic = DynamicClient(api)
    config_maps = dynamic.resources.get(api_version="v1", kind="ConfigMap")

    # The 22.x REST layer only sends apply-patch+yaml bodies that are already serialized, so the dict goes as JSON text.
    def apply(manager, owner, **options):
        body = json.dumps(config_map("applied", namespace, {"owner": owner}))
        return config_maps.server_side_apply(body=body, name="applied", namespace=namespace, field_manager=manager, **options)

    first = apply("first", "first")
    conflict = None
    try:
        apply("second", "second")
    except ConflictError as error:
        conflict = error.status
    forced = apply("second", "second", force_conflicts=True)
    managers = sorted(entry.manager for entry in forced.metadata.managedFields)
    listed = config_maps.get(namespace=namespace)
    return {
        "first": first.data.owner,
        "conflict": conflict,
        "forced": forced.data.owner,
        "managers": managers,
        "listKind": listed.kind,
    }


def check_orphan_delete(api, namespace):
    core = client.CoreV1Api(api)
    owner = core.create_namespaced_config_map(namespace, config_map("owner", namespace))
    core.create_namespaced_config_map(namespace, config_map("dependent", namespace, owner=owner))
    core.delete_namespaced_config_map("owner", namespace, orphan_dependents=True)

    def owner_gone():
        try:
            core.read_namespaced_config_map("owner", namespace)
            return False
        except ApiException as error:
            return error.status == 404

    poll(lambda: owner_gone(), lambda gone: gone)
    dependent = poll(lambda: core.read_namespaced_config_map("dependent", namespace), lambda cm: not cm.metadata.owner_references)
    return {"dependent": dependent.metadata.name, "ownerReferences": dependent.metadata.owner_references}


def check_error_shape(api, namespace):
    core = client.CoreV1Api(api)
    try:
        core.read_namespaced_config_map("missing", namespace)
    except ApiException as error:
        body = json.loads(error.body)
        return {"status": error.status, "reason": body["reason"], "message": body["message"], "details": body["details"]}
    return {"status": 200}


def check_leader_election(api, namespace):
    from kubernetes.leaderelection import electionconfig, leaderelection
    from kubernetes.leaderelection.resourcelock.configmaplock import ConfigMapLock

    identity = "candidate-" + uuid.uuid4().hex[:8]
    leading = threading.Event()
    election = electionconfig.Config(ConfigMapLock("python-lock", namespace, identity), lease_duration=17, renew_deadline=15,
                                     retry_period=5, onstarted_leading=leading.set, onstopped_leading=lambda: None)
    threading.Thread(target=leaderelection.LeaderElection(election).run, daemon=True).start()
    if not leading.wait(30):
        raise RuntimeError("never became leader")
    lock = client.CoreV1Api(api).read_namespaced_config_map("python-lock", namespace)
    record = json.loads(lock.metadata.annotations["control-plane.alpha.kubernetes.io/leader"])
    return {"holder": record["holderIdentity"] == identity}


def check_go_zero_values(api, namespace):
    """Fields kube's encoding always writes (Go zero values) reach the typed models, so code reading them off a
    fresh object works: a Deployment's status, a Service's status.loadBalancer, the required counters of a
    DaemonSet or PodDisruptionBudget status written in part, a core Event's reportingComponent."""
    core, apps, policy = client.CoreV1Api(api), client.AppsV1Api(api), client.PolicyV1Api(api)
    labels = {"app": "zero"}
    template = {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}
    deployment = apps.create_namespaced_deployment(namespace, {
        "metadata": {"name": "zero"}, "spec": {"selector": {"matchLabels": labels}, "template": template}})
    service = core.create_namespaced_service(namespace, {"metadata": {"name": "zero"}, "spec": {"ports": [{"port": 80}]}})
    apps.create_namespaced_daemon_set(namespace, {"metadata": {"name": "zero"}, "spec": {"selector": {"matchLabels": labels}, "template": template}})
    daemon_set = apps.patch_namespaced_daemon_set_status("zero", namespace, {"status": {"numberReady": 0, "observedGeneration": 1}})
    policy.create_namespaced_pod_disruption_budget(namespace, {"metadata": {"name": "zero"}, "spec": {"minAvailable": 1, "selector": {"matchLabels": labels}}})
    budget = policy.patch_namespaced_pod_disruption_budget_status("zero", namespace, {"status": {"observedGeneration": 1}})
    event = core.create_namespaced_event(namespace, {"metadata": {"name": "zero"}, "involvedObject": {"kind": "Pod", "name": "p", "namespace": namespace}, "reason": "R"})
    raw = api.call_api(f"/apis/apps/v1/namespaces/{namespace}/deployments/zero", "GET", response_type=object, _return_http_data_only=True)
    return {
        "deploymentStatus": type(deployment.status).__name__,
        "templateMetadata": raw["spec"]["template"]["metadata"],
        "loadBalancer": type(service.status.load_balancer).__name__,
        # Their controllers may have written some already: what matters is that none is missing.
        "daemonSet": [type(n).__name__ for n in (daemon_set.status.current_number_scheduled, daemon_set.status.desired_number_scheduled,
                                                 daemon_set.status.number_misscheduled)],
        "budget": [type(n).__name__ for n in (budget.status.current_healthy, budget.status.desired_healthy,
                                              budget.status.disruptions_allowed, budget.status.expected_pods)],
        "event": [event.reporting_component, event.reporting_instance, event.event_time],
    }


CHECKS = {name[len("check_"):]: fn for name, fn in globals().items() if name.startswith("check_")}


def main():
    kubeconfig, namespace, check = sys.argv[1:4]
    # The leader election lock builds its own CoreV1Api() on the default configuration.
    config.load_kube_config(config_file=kubeconfig)
    api = client.ApiClient()
    print(json.dumps(CHECKS[check](api, namespace), default=str))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
