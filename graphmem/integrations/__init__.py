"""graphmem inside the frameworks agents are built with, each an optional extra:

- `graphmem.integrations.langgraph`: `GraphMemStore`, LangGraph's long-term memory store
  (`pip install 'graphmem[langgraph]'`);
- `graphmem.integrations.langchain`: `GraphMemRetriever` and the memory tools
  (`pip install 'graphmem[langchain]'`);
- `graphmem.integrations.llamaindex`: `GraphMemMemoryBlock` and `GraphMemRetriever`
  (`pip install 'graphmem[llamaindex]'`).

Each talks to a `GraphMem` (the service), as the other transports do.
"""
