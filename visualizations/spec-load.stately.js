import { createMachine } from 'xstate';
export default createMachine({
  "id": "specLoad",
  "initial": "fetching",
  "on": {
    "CANCEL": {
      "target": ".closed",
      "actions": {
        "type": "failCancelled"
      }
    }
  },
  "states": {
    "fetching": {
      "meta": {
        "operation": "openapi/spec"
      },
      "invoke": {
        "id": "fetchSpec",
        "src": "fetchSpec",
        "onDone": [
          {
            "guard": {
              "type": "isHttpError"
            },
            "target": "closed",
            "actions": {
              "type": "failHttpStatus"
            }
          },
          {
            "guard": {
              "type": "isMalformed"
            },
            "target": "closed",
            "actions": {
              "type": "failProtocol"
            }
          },
          {
            "target": "closed",
            "actions": {
              "type": "succeed"
            }
          }
        ],
        "onError": {
          "target": "closed",
          "actions": {
            "type": "failWithError"
          }
        }
      },
      "after": {
        "SPEC_DEADLINE": {
          "target": "closed",
          "actions": {
            "type": "failTimeout"
          }
        }
      }
    },
    "closed": {
      "type": "final",
      "entry": "teardown"
    }
  }
});
