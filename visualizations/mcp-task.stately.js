import { createMachine } from 'xstate';
export default createMachine({
  "id": "mcpTask",
  "initial": "starting",
  "on": {
    "CANCEL": {
      "target": ".closing",
      "actions": [
        {
          "type": "failCancelled"
        },
        "abandonTask"
      ]
    }
  },
  "states": {
    "starting": {
      "always": [
        {
          "guard": {
            "type": "bringsAnswers"
          },
          "target": "updating"
        },
        {
          "target": "working"
        }
      ]
    },
    "working": {
      "meta": {
        "operation": "tasks/get"
      },
      "after": {
        "POLL_DELAY": {
          "target": "polling"
        },
        "TASK_DEADLINE": {
          "target": "closing",
          "actions": [
            "failTaskDeadline",
            "abandonTask"
          ]
        }
      }
    },
    "polling": {
      "meta": {
        "operation": "tasks/get"
      },
      "entry": {
        "type": "beginRequest",
        "params": {
          "operation": "tasks/get"
        }
      },
      "exit": "nextRequestId",
      "invoke": {
        "id": "getTask",
        "src": "taskExchange",
        "onDone": [
          {
            "guard": {
              "type": "isUnauthorized"
            },
            "target": "closing",
            "actions": {
              "type": "failUnauthorized"
            }
          },
          {
            "guard": {
              "type": "isTaskGone"
            },
            "target": "closing",
            "actions": "failTaskGone"
          },
          {
            "guard": {
              "type": "retriesPollStatus"
            },
            "target": "working",
            "actions": "countPollFailure"
          },
          {
            "guard": {
              "type": "isHttpError"
            },
            "target": "closing",
            "actions": [
              {
                "type": "failRefused"
              },
              "abandonTask"
            ]
          },
          {
            "guard": {
              "type": "isCompleted"
            },
            "target": "closing",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              },
              {
                "type": "succeed"
              }
            ]
          },
          {
            "guard": {
              "type": "isFailed"
            },
            "target": "closing",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              },
              {
                "type": "failTaskFailed"
              }
            ]
          },
          {
            "guard": {
              "type": "isCancelledByServer"
            },
            "target": "closing",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              },
              "failServerCancelled"
            ]
          },
          {
            "guard": {
              "type": "awaitsResult"
            },
            "target": "fetchingResult",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              }
            ]
          },
          {
            "guard": {
              "type": "asksDeferringCaller"
            },
            "target": "closing",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              },
              {
                "type": "failDeferredTaskInput"
              }
            ]
          },
          {
            "guard": {
              "type": "asksForInput"
            },
            "target": "asking",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              },
              {
                "type": "assignInput"
              }
            ]
          },
          {
            "guard": {
              "type": "asksForInputPastLimit"
            },
            "target": "closing",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              },
              {
                "type": "failProtocol",
                "params": {
                  "violation": "asked for client input in more rounds than a call answers"
                }
              },
              "abandonTask"
            ]
          },
          {
            "guard": {
              "type": "isStatus"
            },
            "target": "working",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              }
            ]
          },
          {
            "target": "closing",
            "actions": [
              {
                "type": "failProtocol",
                "params": {
                  "violation": "ended a tasks/get without a response"
                }
              },
              "abandonTask"
            ]
          }
        ],
        "onError": [
          {
            "guard": {
              "type": "isGoneError"
            },
            "target": "closing",
            "actions": "failTaskGone"
          },
          {
            "guard": {
              "type": "retriesPoll"
            },
            "target": "working",
            "actions": "countPollFailure"
          },
          {
            "target": "closing",
            "actions": [
              {
                "type": "failWithError"
              },
              "abandonTask"
            ]
          }
        ]
      },
      "after": {
        "REQUEST_DEADLINE": {
          "target": "closing",
          "actions": [
            "failRequestDeadline",
            "abandonTask"
          ]
        },
        "TASK_DEADLINE": {
          "target": "closing",
          "actions": [
            "failTaskDeadline",
            "abandonTask"
          ]
        }
      }
    },
    "asking": {
      "meta": {
        "operation": "tasks/update"
      },
      "entry": {
        "type": "beginRequest",
        "params": {
          "operation": "tasks/update"
        }
      },
      "invoke": {
        "id": "answerTaskInput",
        "src": "answerTaskInput",
        "onDone": {
          "target": "updating",
          "actions": {
            "type": "assignResponses"
          }
        },
        "onError": {
          "target": "closing",
          "actions": [
            {
              "type": "failWithError"
            },
            "abandonTask"
          ]
        }
      },
      "after": {
        "TASK_DEADLINE": {
          "target": "closing",
          "actions": [
            "failTaskDeadline",
            "abandonTask"
          ]
        }
      }
    },
    "updating": {
      "meta": {
        "operation": "tasks/update"
      },
      "entry": {
        "type": "beginRequest",
        "params": {
          "operation": "tasks/update"
        }
      },
      "exit": "nextRequestId",
      "invoke": {
        "id": "updateTask",
        "src": "taskExchange",
        "onDone": [
          {
            "guard": {
              "type": "isUnauthorized"
            },
            "target": "closing",
            "actions": {
              "type": "failUnauthorized"
            }
          },
          {
            "guard": {
              "type": "isTaskGone"
            },
            "target": "closing",
            "actions": "failTaskGone"
          },
          {
            "guard": {
              "type": "isHttpError"
            },
            "target": "closing",
            "actions": [
              {
                "type": "failRefused"
              },
              "abandonTask"
            ]
          },
          {
            "guard": {
              "type": "isAck"
            },
            "target": "working"
          },
          {
            "target": "closing",
            "actions": [
              {
                "type": "failProtocol",
                "params": {
                  "violation": "ended a tasks/update without a response"
                }
              },
              "abandonTask"
            ]
          }
        ],
        "onError": [
          {
            "guard": {
              "type": "isGoneError"
            },
            "target": "closing",
            "actions": "failTaskGone"
          },
          {
            "target": "closing",
            "actions": [
              {
                "type": "failWithError"
              },
              "abandonTask"
            ]
          }
        ]
      },
      "after": {
        "REQUEST_DEADLINE": {
          "target": "closing",
          "actions": [
            "failRequestDeadline",
            "abandonTask"
          ]
        },
        "TASK_DEADLINE": {
          "target": "closing",
          "actions": [
            "failTaskDeadline",
            "abandonTask"
          ]
        }
      }
    },
    "fetchingResult": {
      "meta": {
        "operation": "tasks/result"
      },
      "entry": {
        "type": "beginRequest",
        "params": {
          "operation": "tasks/result"
        }
      },
      "exit": "nextRequestId",
      "invoke": {
        "id": "fetchTaskResult",
        "src": "taskExchange",
        "onDone": [
          {
            "guard": {
              "type": "isUnauthorized"
            },
            "target": "closing",
            "actions": {
              "type": "failUnauthorized"
            }
          },
          {
            "guard": {
              "type": "isTaskGone"
            },
            "target": "closing",
            "actions": "failTaskGone"
          },
          {
            "guard": {
              "type": "isHttpError"
            },
            "target": "closing",
            "actions": [
              {
                "type": "failRefused"
              },
              "abandonTask"
            ]
          },
          {
            "guard": {
              "type": "isResult"
            },
            "target": "closing",
            "actions": {
              "type": "succeed"
            }
          },
          {
            "target": "closing",
            "actions": [
              {
                "type": "failProtocol",
                "params": {
                  "violation": "ended a tasks/result without a response"
                }
              },
              "abandonTask"
            ]
          }
        ],
        "onError": [
          {
            "guard": {
              "type": "isGoneError"
            },
            "target": "closing",
            "actions": "failTaskGone"
          },
          {
            "guard": {
              "type": "isRpcFailure"
            },
            "target": "closing",
            "actions": {
              "type": "failTaskResultError"
            }
          },
          {
            "target": "closing",
            "actions": [
              {
                "type": "failWithError"
              },
              "abandonTask"
            ]
          }
        ]
      },
      "after": {
        "TASK_DEADLINE": {
          "target": "closing",
          "actions": [
            "failTaskDeadline",
            "abandonTask"
          ]
        }
      }
    },
    "closing": {
      "always": [
        {
          "guard": {
            "type": "abandonsTask"
          },
          "target": "cancelling"
        },
        {
          "target": "done"
        }
      ]
    },
    "cancelling": {
      "meta": {
        "operation": "tasks/cancel"
      },
      "entry": {
        "type": "beginRequest",
        "params": {
          "operation": "tasks/cancel"
        }
      },
      "exit": "nextRequestId",
      "invoke": {
        "id": "cancelTask",
        "src": "taskExchange",
        "onDone": {
          "target": "done"
        },
        "onError": {
          "target": "done"
        }
      },
      "after": {
        "CANCEL_DEADLINE": {
          "target": "done"
        }
      },
      "on": {
        "CANCEL": {
          "target": "done"
        }
      }
    },
    "done": {
      "type": "final",
      "entry": [
        "forgetAnswers",
        "teardown"
      ]
    }
  }
});
