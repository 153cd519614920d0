# Watches the SparkApplications of one namespace with the Kubernetes Python client, printing one
# line "<type> <name>" per event, and stops after the event of the application named "after".
# Arguments: the API server's URL, the namespace. Run by PythonClientTest.
import sys

from kubernetes import client, watch

configuration = client.Configuration()
configuration.host = sys.argv[1]
api = client.CustomObjectsApi(client.ApiClient(configuration))
stream = watch.Watch()
for event in stream.stream(
    api.list_namespaced_custom_object,
    "spark.apache.org",
    "v1",
    sys.argv[2],
    "sparkapplications",
    timeout_seconds=30,
):
    name = event["object"]["metadata"]["name"]
    print(event["type"], name, flush=True)
    if name == "after":
        stream.stop()
